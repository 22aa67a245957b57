-- The named players of the recorded games, with how many games each sat in, by name.
SELECT s.player AS player, count(DISTINCT s.game_id) AS games
FROM seats s
JOIN games g USING (game_id)
WHERE g.source = 'recorded' AND s.player IS NOT NULL
GROUP BY s.player
ORDER BY s.player
