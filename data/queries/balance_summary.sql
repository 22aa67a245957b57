-- Headline balance per player count, one observation per game: balance = 1 − max |W_a − W_b|
-- over pairs of positions in epoch 1's turn order (its interval is that of the widest gap,
-- taken per game: the seats of one game are not independent), mean winning margin, share of
-- games won by less than 5 gold, mean plies, with 95% intervals (means ± 1.96·SE, the share a
-- Wilson interval). `decision_share`: decision moves, the share of turns with more than one
-- legal action, from the aggregates (which keep no per-game counts, so it has no interval).
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to.
WITH games_in AS (
    SELECT game_id, players, plies
    FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to)
),
per_game AS (
    SELECT g.game_id, g.players, g.plies, s.victory_margin,
           [s.w1, s.w2, s.w3, s.w4] AS shares
    FROM games_in g JOIN (
        SELECT game_id, max(margin) AS victory_margin,
               sum(win_share) FILTER (WHERE turn_position = 1) AS w1,
               sum(win_share) FILTER (WHERE turn_position = 2) AS w2,
               sum(win_share) FILTER (WHERE turn_position = 3) AS w3,
               sum(win_share) FILTER (WHERE turn_position = 4) AS w4
        FROM seats WHERE game_id IN (SELECT game_id FROM games_in)
        GROUP BY game_id
    ) s USING (game_id)
),
gaps AS (
    SELECT players, avg(gap) AS gap, 1.96 * stddev_samp(gap) / sqrt(count(*)) AS half_width
    FROM (
        SELECT g.players, p.first, p.second, g.shares[p.first] - g.shares[p.second] AS gap
        FROM per_game g
        JOIN (VALUES (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)) p(first, second)
            ON p.second <= g.players
    )
    GROUP BY players, first, second
),
widest AS (
    SELECT players, abs(gap) AS gap, half_width FROM gaps
    QUALIFY row_number() OVER (PARTITION BY players ORDER BY abs(gap) DESC, half_width DESC) = 1
),
sums AS (
    SELECT players, count(*) AS games,
           avg(victory_margin) AS mean_victory_margin,
           1.96 * stddev_samp(victory_margin) / sqrt(count(*)) AS victory_margin_half_width,
           count(*) FILTER (WHERE victory_margin < 5) AS close_games,
           avg(plies) AS mean_plies, 1.96 * stddev_samp(plies) / sqrt(count(*)) AS plies_half_width
    FROM per_game GROUP BY players
),
decisions AS (
    SELECT players, sum(sum_decisions) / sum(sum_plies) AS decision_share
    FROM agg_games WHERE kept(edition, variant, players, source, created,
         $edition, $variant, $players, $source, $date_from, $date_to)
    GROUP BY ALL
)
SELECT s.players, s.games,
       1 - w.gap AS balance, 1 - w.gap - w.half_width AS balance_low,
       least(1, 1 - w.gap + w.half_width) AS balance_high,
       s.mean_victory_margin, s.victory_margin_half_width,
       s.close_games / s.games AS close_game_share,
       wilson(s.close_games, s.games, -1) AS close_game_low,
       wilson(s.close_games, s.games, 1) AS close_game_high,
       s.mean_plies, s.plies_half_width, d.decision_share
FROM sums s JOIN widest w USING (players) JOIN decisions d USING (players)
ORDER BY s.players
