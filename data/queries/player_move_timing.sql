-- When in its epoch each move of a named player, $player, came, in their recorded games: the
-- cells of the game's board filled before it in that epoch (by every seat) and the third of the
-- board that makes (1: under a third filled, 2: under two thirds, 3: the rest). One row a move
-- of a seat the player held, by game and ply.
WITH board AS (  -- each rule set's cells
    SELECT rules, count(*) AS cells FROM rule_set_cells GROUP BY rules
),
played AS (
    SELECT game_id, ply, seat,
           count(cell) OVER (PARTITION BY game_id, epoch ORDER BY ply
                             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS filled
    FROM _moves
    WHERE source = 'recorded'
      AND game_id IN (SELECT game_id FROM seats WHERE player = $player)
)
SELECT p.game_id AS game_id, p.ply AS ply, CAST(p.filled AS SMALLINT) AS cells_filled,
       CAST(p.filled * 3 // board.cells + 1 AS TINYINT) AS third
FROM played p
JOIN seats s ON s.game_id = p.game_id AND s.seat = p.seat AND s.player = $player
JOIN games g ON g.game_id = p.game_id JOIN board ON board.rules = g.rules
ORDER BY p.game_id, p.ply
