-- Every seat of the recorded games a named player, $player, sat in: who held it and its win
-- share, the oldest game first.
SELECT s.game_id AS game_id, g.created AS created, g.players AS players, s.seat AS seat,
       s.player AS player, s.win_share AS win_share
FROM seats s
JOIN games g USING (game_id)
WHERE g.source = 'recorded'
  AND s.game_id IN (SELECT game_id FROM seats WHERE player = $player)
ORDER BY g.created, s.game_id, s.seat
