-- The values each sidebar filter can take: one row per (filter, value) with its game count.
SELECT 'edition' AS filter, edition AS value, count(*) AS games FROM games GROUP BY ALL
UNION ALL SELECT 'variant', variant, count(*) FROM games GROUP BY ALL
UNION ALL SELECT 'players', CAST(players AS VARCHAR), count(*) FROM games GROUP BY ALL
UNION ALL SELECT 'source', source, count(*) FROM games GROUP BY ALL
UNION ALL SELECT 'agent', agent, count(DISTINCT game_id) FROM seats WHERE agent IS NOT NULL GROUP BY ALL
UNION ALL SELECT 'player', player, count(DISTINCT game_id) FROM seats WHERE agent IS NULL GROUP BY ALL
ORDER BY filter, games DESC
