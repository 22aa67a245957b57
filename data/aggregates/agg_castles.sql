-- Castle yields per cell, rank and epoch, with the owner's outcome (cell heatmaps).
SELECT g.edition, g.variant, g.players, gl.level, g.created, s.agent, s.player, c.epoch, c.cell, c.rank,
       count(*) AS n,
       sum(c.row_gold + c.column_gold) AS sum_gold,
       sum((c.row_gold + c.column_gold) ^ 2) AS sumsq_gold,
       sum((c.row_gold + c.column_gold) / c.effective_rank) AS sum_unit,
       sum(((c.row_gold + c.column_gold) / c.effective_rank) ^ 2) AS sumsq_unit,
       sum(s.win_share) AS sum_win,
       sum(s.win_share ^ 2) AS sumsq_win
FROM castles c JOIN games g USING (game_id) JOIN game_levels gl USING (game_id) JOIN seats s USING (game_id, seat)
GROUP BY ALL
