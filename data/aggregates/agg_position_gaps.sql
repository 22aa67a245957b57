-- The gap between the win shares of two positions in epoch 1's turn order, one observation per
-- game (the seats of one game are not independent), for every pair of positions the game has
-- (balance headline).
WITH shares AS (
    SELECT game_id,
           [sum(win_share) FILTER (WHERE turn_position = 1),
            sum(win_share) FILTER (WHERE turn_position = 2),
            sum(win_share) FILTER (WHERE turn_position = 3),
            sum(win_share) FILTER (WHERE turn_position = 4)] AS by_position
    FROM seats GROUP BY game_id
),
gaps AS (
    SELECT g.edition, g.variant, g.players, gl.level, g.created,
           CAST(p.first AS TINYINT) AS first_position,
           CAST(p.second AS TINYINT) AS second_position,
           s.by_position[p.first] - s.by_position[p.second] AS gap
    FROM games g JOIN game_levels gl USING (game_id) JOIN shares s USING (game_id)
    JOIN (VALUES (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)) p(first, second)
        ON p.second <= g.players
)
SELECT edition, variant, players, level, created, first_position, second_position,
       count(*) AS n, sum(gap) AS sum_gap, sum(gap ^ 2) AS sumsq_gap
FROM gaps
GROUP BY ALL
