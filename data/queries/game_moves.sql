-- One game's turns in order: $game_id. What the replay viewer steps through.
SELECT ply, epoch, turn, seat, kind, cell, cell_row, cell_column, piece, castle_rank,
       tile_value, action, gold_before
FROM _moves
WHERE game_id = $game_id AND batch_id = $game_batch
ORDER BY ply
