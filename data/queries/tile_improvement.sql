-- "Improvement when placed" per tile kind: mean win_share of seats that placed the kind at
-- least once in the game against seats that never did; `improvement` is the difference, with
-- its 95% interval by Newcombe's hybrid score method from the two sides' Wilson intervals (within
-- [−1, 1]). Filters (NULL = all): $edition $variant $players $level $source
-- $date_from $date_to $agent $player.
WITH sums AS (
    SELECT tile,
           CAST(sum(n) FILTER (WHERE placed) AS BIGINT) AS n_placed,
           sum(sum_win) FILTER (WHERE placed) AS win_placed,
           CAST(sum(n) FILTER (WHERE NOT placed) AS BIGINT) AS n_not,
           sum(sum_win) FILTER (WHERE NOT placed) AS win_not
    FROM agg_tile_use
    WHERE kept(edition, variant, players, level, source, created, rules,
         $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
    GROUP BY tile
),
sides AS (
    SELECT *, win_placed / n_placed AS placed, win_not / n_not AS not_placed,
           wilson(win_placed, n_placed, -1) AS placed_low,
           wilson(win_placed, n_placed, 1) AS placed_high,
           wilson(win_not, n_not, -1) AS not_low, wilson(win_not, n_not, 1) AS not_high
    FROM sums
)
SELECT tile, coalesce(n_placed, 0) AS seats_placed, placed AS win_share_placed,
       coalesce(n_not, 0) AS seats_not_placed, not_placed AS win_share_not_placed,
       placed - not_placed AS improvement,
       placed - not_placed - sqrt((placed - placed_low) ^ 2 + (not_high - not_placed) ^ 2)
           AS ci_low,
       placed - not_placed + sqrt((placed_high - placed) ^ 2 + (not_placed - not_low) ^ 2)
           AS ci_high
FROM sides
ORDER BY improvement DESC NULLS LAST
