-- Leader after epoch k goes on to win, per player count and epoch k (1, 2): of the games with
-- one seat alone in the lead (most gold after epoch k), `leader_won` is how many that seat went
-- on to win (most gold after epoch 3, alone or tied), `share` its share with a 95% Wilson
-- interval over those games. Filters (NULL = all): $edition $variant $players $level $source
-- $date_from $date_to.
WITH sums AS (
    SELECT players,
           CAST(sum(sole_leads_1) AS BIGINT) AS games_1,
           CAST(sum(leader_won_1) AS BIGINT) AS won_1,
           CAST(sum(sole_leads_2) AS BIGINT) AS games_2,
           CAST(sum(leader_won_2) AS BIGINT) AS won_2
    FROM agg_games WHERE kept(edition, variant, players, level, source, created, rules,
         $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    GROUP BY ALL
),
counts AS (
    SELECT players, 1 AS epoch, games_1 AS games, won_1 AS leader_won FROM sums
    UNION ALL
    SELECT players, 2, games_2, won_2 FROM sums
)
SELECT players, epoch, games, leader_won, leader_won / games AS share,
       wilson(leader_won, games, -1) AS ci_low, wilson(leader_won, games, 1) AS ci_high
FROM counts
WHERE games > 0
ORDER BY players, epoch
