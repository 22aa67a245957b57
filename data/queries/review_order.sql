-- The recorded games to review, those with a seat held by $player first (NULL: no one first),
-- each part by game id.
SELECT g.game_id AS game_id
FROM games g
WHERE g.source = 'recorded'
ORDER BY g.game_id NOT IN (SELECT s.game_id FROM seats s WHERE s.player = $player), g.game_id
