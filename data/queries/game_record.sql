-- One game with what its record needs: rules, actions, tags and who sat where.
-- $game_id: the game's id.
SELECT g.game_id, g.source, g.edition, g.variant, g.players, g.seed, g.actions, g.tags,
       list(s.seat ORDER BY s.seat) AS seats,
       list(s.player ORDER BY s.seat) AS seat_players,
       list(s.agent ORDER BY s.seat) AS seat_agents
FROM games g
JOIN seats s USING (game_id)
WHERE g.game_id = $game_id
GROUP BY ALL
