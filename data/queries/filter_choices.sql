-- The values each dashboard filter can take, with the games behind each, over the whole lake.
SELECT 'edition' AS dimension, edition AS value, count(*) AS games FROM games GROUP BY ALL
UNION ALL
SELECT 'variant', variant, count(*) FROM games WHERE variant <> '' GROUP BY ALL
UNION ALL
SELECT 'players', CAST(players AS VARCHAR), count(*) FROM games GROUP BY ALL
UNION ALL
SELECT 'source', source, count(*) FROM games GROUP BY ALL
UNION ALL
SELECT 'agent', agent, count(DISTINCT game_id) FROM seats WHERE agent IS NOT NULL GROUP BY ALL
UNION ALL
SELECT 'player', player, count(DISTINCT game_id) FROM seats WHERE player IS NOT NULL GROUP BY ALL
UNION ALL
SELECT 'first_date', strftime(min(created), '%Y-%m-%d'), count(*) FROM games HAVING count(*) > 0
UNION ALL
SELECT 'last_date', strftime(max(created), '%Y-%m-%d'), count(*) FROM games HAVING count(*) > 0
ORDER BY dimension, value
