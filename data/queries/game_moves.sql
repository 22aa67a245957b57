-- One game's turns in order: $game_id. What the replay viewer steps through.
SELECT ply, epoch, turn, seat, kind, cell, cell_row, cell_column, piece, castle_rank,
       tile_value, action, gold_before
FROM batch_decoded_moves($game_source, $game_batch)
WHERE game_id = $game_id
ORDER BY ply
