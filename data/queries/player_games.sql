-- The recorded games of a named player, $player: one row a seat the player held there (its
-- letter), the oldest stored first.
SELECT s.game_id AS game_id, s.seat AS seat, g.players AS players, s.win_share AS win_share,
       g.created AS created
FROM seats s
JOIN games g USING (game_id)
WHERE g.source = 'recorded' AND s.player = $player
ORDER BY g.created, s.game_id, s.seat
