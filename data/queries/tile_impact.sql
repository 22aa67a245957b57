-- Tile impact per tile kind: mean counterfactual impact on the placer, on each opponent, and
-- the net swing (placer − mean opponent), with 95% half-widths that treat the game as the unit
-- (a ratio of sums over games, docs/metrics.md; a placement's impact on each opponent is its
-- mean over them), split by $split: NULL/'all', 'epoch', 'timing' (fifth of the epoch, 1–5),
-- 'placed_by' ('drawn' / 'start') or 'agent' (the placer's), and crossed with a second split
-- $cross_split from the same list (column `cross_split`, 'all' when NULL); the placements and
-- games behind each row, and `games_kept`, the games the filters keep (those the agent or
-- player sat in when one is chosen), which every row's games are among.
-- Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to $agent $player
-- $epoch ($agent/$player select the placer).
WITH splits AS (SELECT [coalesce($split, 'all'), coalesce($cross_split, 'all')] AS chosen),
sums AS (
    SELECT tile,
           tile_split($split, epoch, timing, placed_by, agent) AS split,
           tile_split($cross_split, epoch, timing, placed_by, agent) AS cross_split,
           CAST(sum(n) AS BIGINT) AS n, CAST(sum(games) AS BIGINT) AS games,
           sum(game_n_sq) AS n_sq,
           sum(sum_own) AS own, sum(game_own_sq) AS own_sq, sum(game_own_n) AS own_n,
           sum(sum_opponent) AS opponent, sum(game_opponent_sq) AS opponent_sq,
           sum(game_opponent_n) AS opponent_n,
           sum(sum_net) AS net, sum(game_net_sq) AS net_sq, sum(game_net_n) AS net_n
    FROM agg_tile_kinds CROSS JOIN splits
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND all_seats = ($agent IS NULL AND $player IS NULL AND NOT list_contains(chosen, 'agent'))
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND all_epochs = ($epoch IS NULL AND NOT list_contains(chosen, 'epoch'))
      AND ($epoch IS NULL OR epoch = $epoch)
      AND all_timings = NOT list_contains(chosen, 'timing')
      AND all_placed_by = NOT list_contains(chosen, 'placed_by')
    GROUP BY ALL
),
kept_games AS (
    SELECT CAST(coalesce(sum(games), 0) AS BIGINT) AS games_kept FROM agg_epochs
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND all_seats = ($agent IS NULL AND $player IS NULL)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND all_epochs = ($epoch IS NULL) AND ($epoch IS NULL OR epoch = $epoch)
)
SELECT tile, split, cross_split, n AS placements, games,
       own / n AS placer_impact,
       ratio_half_width(games, own, n, own_sq, own_n, n_sq) AS placer_half_width,
       opponent / n AS opponent_impact,
       ratio_half_width(games, opponent, n, opponent_sq, opponent_n, n_sq)
           AS opponent_half_width,
       net / n AS net_swing, ratio_half_width(games, net, n, net_sq, net_n, n_sq) AS net_half_width,
       games_kept
FROM sums CROSS JOIN kept_games LEFT JOIN pieces p ON p.piece = sums.tile
ORDER BY p.code, tile, split, cross_split  -- the engine's order of the tiles
