-- Seat outcomes by seat letter and position in epoch 1's turn order (balance, agent ladder).
SELECT g.edition, g.variant, g.players, gl.level, g.created, g.rules, s.agent, s.player, s.seat, s.turn_position,
       count(*) AS n,
       sum(s.win_share) AS sum_win, sum(s.win_share ^ 2) AS sumsq_win,
       sum((s.utility + 1) / 2) AS sum_partial, sum(((s.utility + 1) / 2) ^ 2) AS sumsq_partial
FROM seats s JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
GROUP BY ALL
