-- Lead changes and comebacks per player count. `lead_changes`: times the leader (most gold
-- after an epoch; a shared lead that continues is no change) changes across the epochs;
-- `comeback_share`: share of those games won by a seat that was last after epoch 1 or 2.
-- One row per player count and number of lead changes. Filters (NULL = all): $edition
-- $variant $players $source $date_from $date_to.
WITH sums AS (
    SELECT players, lead_changes, CAST(sum(n) AS BIGINT) AS games,
           CAST(sum(n) FILTER (WHERE comeback) AS BIGINT) AS comebacks
    FROM agg_games WHERE kept(edition, variant, players, source, created,
         $edition, $variant, $players, $source, $date_from, $date_to)
    GROUP BY ALL
)
SELECT players, lead_changes, games,
       games / sum(games) OVER (PARTITION BY players) AS share,
       coalesce(comebacks, 0) / games AS comeback_share
FROM sums
ORDER BY players, lead_changes
