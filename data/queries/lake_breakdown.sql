-- Games and seats of the filtered games, by source, edition, variant, player count and agent.
-- $edition $variant $players $source $date_from $date_to $agent $player: the dashboard filters.
WITH chosen AS (
    SELECT * FROM filtered_seats($edition, $variant, $players, $source, $date_from, $date_to,
                                 $agent, $player)
), chosen_games AS (
    SELECT * FROM games WHERE game_id IN (SELECT game_id FROM chosen)
)
SELECT 'source' AS dimension, source AS value, count(*) AS games, sum(players) AS seats
FROM chosen_games GROUP BY ALL
UNION ALL
SELECT 'edition', edition, count(*), sum(players) FROM chosen_games GROUP BY ALL
UNION ALL
SELECT 'variant', CASE WHEN variant = '' THEN 'standard' ELSE variant END, count(*), sum(players)
FROM chosen_games GROUP BY ALL
UNION ALL
SELECT 'players', players || ' players', count(*), sum(players) FROM chosen_games GROUP BY ALL
UNION ALL
SELECT 'agent', coalesce(agent, 'person'), count(DISTINCT game_id), count(*) FROM chosen GROUP BY ALL
ORDER BY dimension, games DESC
