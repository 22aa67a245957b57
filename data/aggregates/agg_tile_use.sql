-- Outcome of seats that placed a tile kind at least once in the game, and of seats that never
-- did ("improvement when placed").
WITH kinds AS (
    SELECT unnest(['+1', '+2', '+3', '+4', '+5', '+6', '-1', '-2', '-3', '-4', '-5', '-6',
                   'MT', 'DR', 'GM', 'WZ']) AS tile
),
placed AS (SELECT DISTINCT game_id, placer AS seat, tile FROM tile_placements)
SELECT g.edition, g.variant, g.players, gl.level, g.created, s.agent, s.player, k.tile,
       p.tile IS NOT NULL AS placed,
       count(*) AS n, sum(s.win_share) AS sum_win, sum(s.win_share ^ 2) AS sumsq_win
FROM seats s JOIN games g USING (game_id) JOIN game_levels gl USING (game_id) CROSS JOIN kinds k
LEFT JOIN placed p ON p.game_id = s.game_id AND p.seat = s.seat AND p.tile = k.tile
WHERE k.tile <> 'WZ' OR g.edition = 'kingdoms-2011'
GROUP BY ALL
