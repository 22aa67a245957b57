-- The seats held by one of the agents $agents in the simulated games $game_ids: the game, the
-- seat's letter and its agent.
SELECT s.game_id AS game_id, s.seat AS seat, s.agent AS agent
FROM seats s
JOIN games g USING (game_id)
WHERE g.source = 'simulated' AND list_contains($game_ids, s.game_id)
  AND list_contains($agents, s.agent)
ORDER BY s.game_id, s.seat
