-- Tile impact per tile kind: mean counterfactual impact on the placer, on each opponent, and
-- the net swing (placer − mean opponent), with 95% half-widths over the placements (a
-- placement's impact on each opponent is its mean over them), split by $split: NULL/'all',
-- 'epoch', 'timing' (fifth of the epoch, 1–5), 'placed_by' ('drawn' / 'start') or 'agent'
-- (the placer's), and crossed with a second split $cross_split from the same list (column
-- `cross_split`, 'all' when NULL).
-- Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to $agent $player
-- $epoch ($agent/$player select the placer).
WITH sums AS (
    SELECT tile,
           tile_split($split, epoch, timing, placed_by, agent) AS split,
           tile_split($cross_split, epoch, timing, placed_by, agent) AS cross_split,
           CAST(sum(n) AS BIGINT) AS n, sum(sum_own) AS sum_own, sum(sumsq_own) AS sumsq_own,
           sum(sum_opponent) AS sum_opponent, sum(sumsq_opponent) AS sumsq_opponent,
           sum(sum_net) AS sum_net, sum(sumsq_net) AS sumsq_net
    FROM agg_tile_kinds
    WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND ($epoch IS NULL OR epoch = $epoch)
    GROUP BY ALL
)
SELECT tile, split, cross_split, n AS placements,
       sum_own / n AS placer_impact, half_width(n, sum_own, sumsq_own) AS placer_half_width,
       sum_opponent / n AS opponent_impact,
       half_width(n, sum_opponent, sumsq_opponent) AS opponent_half_width,
       sum_net / n AS net_swing, half_width(n, sum_net, sumsq_net) AS net_half_width
FROM sums LEFT JOIN pieces p ON p.piece = sums.tile
ORDER BY p.code, tile, split, cross_split  -- the engine's order of the tiles
