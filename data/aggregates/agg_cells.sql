-- What filled each cell, when in the epoch, and by whom (occupancy and fill timing heatmaps);
-- a piece's kind as the engine names it (`pieces`).
WITH epoch_turns AS (SELECT game_id, epoch, max(turn) AS turns FROM moves GROUP BY ALL)
SELECT g.edition, g.variant, g.players, gl.level, g.created, s.agent, s.player, m.epoch, m.cell,
       p.piece_kind,
       count(*) AS n,
       sum((m.turn - 1) / greatest(e.turns - 1, 1)) AS sum_fill,
       sum(((m.turn - 1) / greatest(e.turns - 1, 1)) ^ 2) AS sumsq_fill
FROM moves m JOIN games g USING (game_id) JOIN game_levels gl USING (game_id) JOIN seats s USING (game_id, seat)
JOIN epoch_turns e USING (game_id, epoch) JOIN pieces p USING (piece)
WHERE m.kind <> 'pass'
GROUP BY ALL
