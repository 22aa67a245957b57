-- The values each sidebar filter can take: one row per (filter, value) with its game count
-- (for agents and players: seats).
SELECT 'edition' AS filter, edition AS value, sum(n) AS games FROM agg_games GROUP BY ALL
UNION ALL SELECT 'variant', variant, sum(n) FROM agg_games GROUP BY ALL
UNION ALL SELECT 'players', CAST(players AS VARCHAR), sum(n) FROM agg_games GROUP BY ALL
UNION ALL SELECT 'source', source, sum(n) FROM agg_games GROUP BY ALL
UNION ALL SELECT 'agent', agent, sum(n) FROM agg_seats WHERE agent IS NOT NULL GROUP BY ALL
UNION ALL SELECT 'player', player, sum(n) FROM agg_seats WHERE agent IS NULL GROUP BY ALL
ORDER BY filter, games DESC
