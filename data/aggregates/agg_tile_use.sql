-- Outcome of seats that placed a tile kind at least once in the game, and of seats that never
-- did ("improvement when placed"), for every tile kind of the game's rule set (`rule_sets`).
WITH placed AS (SELECT DISTINCT game_id, placer AS seat, tile FROM tile_placements)
SELECT g.edition, g.variant, g.players, gl.level, g.created, g.rules, s.agent, s.player, k.tile,
       p.tile IS NOT NULL AS placed,
       count(*) AS n, sum(s.win_share) AS sum_win, sum(s.win_share ^ 2) AS sumsq_win
FROM seats s JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
JOIN (SELECT rules, unnest(tiles) AS tile FROM rule_sets) k ON k.rules = g.rules
LEFT JOIN placed p ON p.game_id = s.game_id AND p.seat = s.seat AND p.tile = k.tile
GROUP BY ALL
