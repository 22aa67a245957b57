-- One game's turns in order: $game_id. What the replay viewer steps through; `action` is the
-- engine's action id on the game's board.
WITH board AS (
    SELECT CAST(r."rows" AS INTEGER) AS board_rows, CAST(r."columns" AS INTEGER) AS board_columns
    FROM batch_games($game_source, $game_batch) g
    JOIN batch_rule_sets($game_source, $game_batch) r USING (rules)
    WHERE g.game_id = $game_id
)
SELECT ply, epoch, turn, seat, kind, cell, cell_row, cell_column, piece, castle_rank,
       tile_value,
       CAST(turn_action(kind, castle_rank, (cell_row - 1) * board_columns + cell_column - 1,
                        board_rows * board_columns) AS SMALLINT) AS action,
       gold_before
FROM batch_decoded_moves($game_source, $game_batch), board
WHERE game_id = $game_id
ORDER BY ply
