-- Comebacks per player count: games won by a seat that was last after epoch 1 or 2, their share
-- of the games with a 95% Wilson interval. Filters (NULL = all): $edition $variant $players
-- $source $date_from $date_to.
WITH sums AS (
    SELECT players, CAST(sum(n) AS BIGINT) AS games,
           coalesce(CAST(sum(n) FILTER (WHERE comeback) AS BIGINT), 0) AS comebacks
    FROM agg_games WHERE kept(edition, variant, players, level, source, created, rules,
         $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    GROUP BY ALL
)
SELECT players, games, comebacks, comebacks / games AS share,
       wilson(comebacks, games, -1) AS ci_low, wilson(comebacks, games, 1) AS ci_high
FROM sums
ORDER BY players
