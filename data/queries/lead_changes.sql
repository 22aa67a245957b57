-- Lead changes per player count. `lead_changes`: times the leader (most gold after an epoch; a
-- shared lead that continues is no change) changes across the epochs; `share`: the share of
-- the player count's games (`of_games`) with that many changes, with a 95% Wilson interval.
-- One row per player count and number of lead changes. Filters (NULL = all): $edition
-- $variant $players $level $source $date_from $date_to.
WITH sums AS (
    SELECT players, lead_changes, CAST(sum(n) AS BIGINT) AS games
    FROM agg_games WHERE kept(edition, variant, players, level, source, created, rules,
         $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    GROUP BY ALL
),
totals AS (SELECT *, sum(games) OVER (PARTITION BY players) AS of_games FROM sums)
SELECT players, lead_changes, games, CAST(of_games AS BIGINT) AS of_games, games / of_games AS share,
       wilson(games, of_games, -1) AS ci_low, wilson(games, of_games, 1) AS ci_high
FROM totals
ORDER BY players, lead_changes
