-- What is in the lake, by source, edition, variant, player count and agents seated ('people'
-- for recorded players): games, moves and the time span. No parameters.
SELECT source, edition, variant, players, agents, CAST(sum(n) AS BIGINT) AS games, CAST(sum(sum_plies) AS BIGINT) AS moves,
       min(created) AS first_created, max(created) AS last_created
FROM agg_games
GROUP BY ALL
ORDER BY source, edition, variant, players, agents
