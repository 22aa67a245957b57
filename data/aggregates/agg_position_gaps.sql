-- The gap between the win shares of two positions in epoch 1's turn order, one observation per
-- game (the seats of one game are not independent), for every pair of positions the game has
-- (balance headline).
WITH gaps AS (
    SELECT g.edition, g.variant, g.players, gl.level, g.created, g.rules,
           CAST(a.turn_position AS TINYINT) AS first_position,
           CAST(b.turn_position AS TINYINT) AS second_position,
           a.win_share - b.win_share AS gap
    FROM seats a JOIN seats b ON b.game_id = a.game_id AND b.turn_position > a.turn_position
    JOIN games g ON g.game_id = a.game_id JOIN game_levels gl ON gl.game_id = a.game_id
)
SELECT edition, variant, players, level, created, rules, first_position, second_position,
       count(*) AS n, sum(gap) AS sum_gap, sum(gap ^ 2) AS sumsq_gap
FROM gaps
GROUP BY ALL
