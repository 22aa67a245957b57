-- "Improvement when placed" per tile kind: mean win_share of seats that placed the kind at
-- least once in the game against seats that never did; `improvement` is the difference, with
-- its 95% interval (√(SE₁² + SE₂²)). Filters (NULL = all): $edition $variant $players $level $source
-- $date_from $date_to $agent $player.
WITH sums AS (
    SELECT tile,
           CAST(sum(n) FILTER (WHERE placed) AS BIGINT) AS n_placed,
           sum(sum_win) FILTER (WHERE placed) AS win_placed,
           sum(sumsq_win) FILTER (WHERE placed) AS sq_placed,
           CAST(sum(n) FILTER (WHERE NOT placed) AS BIGINT) AS n_not,
           sum(sum_win) FILTER (WHERE NOT placed) AS win_not,
           sum(sumsq_win) FILTER (WHERE NOT placed) AS sq_not
    FROM agg_tile_use
    WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
    GROUP BY tile
),
spread AS (
    SELECT *, standard_error(n_placed, win_placed, sq_placed) ^ 2
              + standard_error(n_not, win_not, sq_not) ^ 2 AS variance
    FROM sums
)
SELECT tile, coalesce(n_placed, 0) AS seats_placed, win_placed / n_placed AS win_share_placed,
       coalesce(n_not, 0) AS seats_not_placed, win_not / n_not AS win_share_not_placed,
       win_placed / n_placed - win_not / n_not AS improvement,
       win_placed / n_placed - win_not / n_not - z95() * sqrt(variance) AS ci_low,
       win_placed / n_placed - win_not / n_not + z95() * sqrt(variance) AS ci_high
FROM spread
ORDER BY improvement DESC NULLS LAST
