-- Head to head: for every ordered pair of agents, in the games where both sat, the share of
-- their seat pairs in which `agent` finished with more gold than `opponent` (a tie counts a
-- half). One observation per game (the mean over the game's pairs), so `score` has a 95% Wilson
-- interval over `games`. Filters (NULL = all): $edition $variant $players $level $source $date_from
-- $date_to.
WITH sums AS (
    SELECT agent, opponent, CAST(sum(n) AS BIGINT) AS games, sum(sum_score) AS total
    FROM agg_head_to_head WHERE kept(edition, variant, players, level, source, created, rules,
         $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    GROUP BY ALL
)
SELECT agent, opponent, games, total / games AS score,
       wilson(total, games, -1) AS ci_low, wilson(total, games, 1) AS ci_high
FROM sums
ORDER BY agent, opponent
