-- Duration per player count and epoch: games, mean turns (plies) in the epoch; epoch 0 is the
-- whole game, with its mean passes and its decision moves (share of turns with more than one
-- legal action). Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to.
WITH sums AS (
    SELECT players, CAST(sum(n) AS BIGINT) AS games, CAST(sum(sum_plies) AS BIGINT) AS plies, sum(sum_plies_1) AS plies_1,
           sum(sum_plies_2) AS plies_2, sum(sum_plies_3) AS plies_3, sum(sum_passes) AS passes,
           sum(sum_decisions) AS decisions
    FROM agg_games WHERE kept(edition, variant, players, level, source, created, rules,
         $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    GROUP BY ALL
)
SELECT players, epoch, games, mean_plies, mean_passes, decision_share FROM (
    SELECT players, 0 AS epoch, games, plies / games AS mean_plies,
           passes / games AS mean_passes, decisions / plies AS decision_share FROM sums
    UNION ALL SELECT players, 1, games, plies_1 / games, NULL, NULL FROM sums
    UNION ALL SELECT players, 2, games, plies_2 / games, NULL, NULL FROM sums
    UNION ALL SELECT players, 3, games, plies_3 / games, NULL, NULL FROM sums
)
ORDER BY players, epoch
