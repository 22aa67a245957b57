-- The simulated games with a seat held by the agent $agent, by game id: ids are hashes of the
-- moves, so the first of them are a sample spread over the lake's batches.
SELECT s.game_id AS game_id
FROM seats s
JOIN games g USING (game_id)
WHERE g.source = 'simulated' AND s.agent = $agent
GROUP BY s.game_id
ORDER BY s.game_id
