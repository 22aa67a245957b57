-- The values each dashboard filter can take, over the whole lake, from the per-batch aggregates:
-- editions, variants, player counts and sources with their games, agents with the games that
-- seat them, play levels with their games, player names with the seats they took, the epochs
-- the games played with their games, and the first and last day played.
WITH lake_games AS MATERIALIZED (
    SELECT edition, variant, players, level, source, agents, created, n FROM agg_games
)
SELECT 'edition' AS dimension, edition AS value, CAST(sum(n) AS BIGINT) AS games
FROM lake_games GROUP BY ALL
UNION ALL
SELECT 'variant', variant, CAST(sum(n) AS BIGINT) FROM lake_games WHERE variant <> '' GROUP BY ALL
UNION ALL
SELECT 'players', CAST(players AS VARCHAR), CAST(sum(n) AS BIGINT) FROM lake_games GROUP BY ALL
UNION ALL
SELECT 'level', level, CAST(sum(n) AS BIGINT) FROM lake_games GROUP BY ALL
UNION ALL
SELECT 'source', source, CAST(sum(n) AS BIGINT) FROM lake_games GROUP BY ALL
UNION ALL
SELECT 'agent', agent, CAST(sum(n) AS BIGINT)
FROM lake_games, unnest(string_split(agents, ', ')) AS seated(agent)
WHERE agent <> 'people' GROUP BY ALL
UNION ALL
SELECT 'player', player, CAST(sum(n) AS BIGINT) FROM agg_seats WHERE player IS NOT NULL GROUP BY ALL
UNION ALL
SELECT 'epoch', CAST(epoch AS VARCHAR), CAST(sum(games) AS BIGINT) FROM agg_epochs
WHERE all_seats AND NOT all_epochs GROUP BY ALL
UNION ALL
SELECT 'first_date', strftime(min(created), '%Y-%m-%d'), CAST(sum(n) AS BIGINT) FROM lake_games
HAVING count(*) > 0
UNION ALL
SELECT 'last_date', strftime(max(created), '%Y-%m-%d'), CAST(sum(n) AS BIGINT) FROM lake_games
HAVING count(*) > 0
ORDER BY dimension, value
