-- One game's seats: $game_id. Who played, their gold after each epoch and the outcome.
SELECT s.seat, s.player, s.agent, s.turn_position, s.final_gold, s.rank, s.win_share,
       s.utility, s.margin,
       list(e.gold_after ORDER BY e.epoch) AS gold_after_epochs
FROM batch_seats($game_source, $game_batch) s
JOIN batch_epoch_scores($game_source, $game_batch) e USING (game_id, seat)
WHERE s.game_id = $game_id
GROUP BY ALL
ORDER BY s.seat
