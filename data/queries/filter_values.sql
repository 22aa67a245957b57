-- The values each sidebar filter can take: one row per (filter, value) with its game count
-- (for agents and players: seats).
SELECT 'edition' AS filter, edition AS value, CAST(sum(n) AS BIGINT) AS games FROM agg_games GROUP BY ALL
UNION ALL SELECT 'variant', variant, CAST(sum(n) AS BIGINT) FROM agg_games GROUP BY ALL
UNION ALL SELECT 'players', CAST(players AS VARCHAR), CAST(sum(n) AS BIGINT) FROM agg_games GROUP BY ALL
UNION ALL SELECT 'source', source, CAST(sum(n) AS BIGINT) FROM agg_games GROUP BY ALL
UNION ALL SELECT 'agent', agent, CAST(sum(n) AS BIGINT) FROM agg_seats WHERE agent IS NOT NULL GROUP BY ALL
UNION ALL SELECT 'player', player, CAST(sum(n) AS BIGINT) FROM agg_seats WHERE agent IS NULL GROUP BY ALL
ORDER BY filter, games DESC
