-- How often each final gold, margin and winning margin occurred (score distributions).
WITH seated AS (SELECT s.*, g.edition, g.variant, g.players, gl.level, g.created, g.rules
                FROM seats s JOIN games g USING (game_id) JOIN game_levels gl USING (game_id))
SELECT edition, variant, players, level, created, rules, agent, player, 'final_gold' AS metric,
       final_gold AS value, count(*) AS n
FROM seated GROUP BY ALL
UNION ALL
SELECT edition, variant, players, level, created, rules, agent, player, 'margin', margin, count(*)
FROM seated GROUP BY ALL
UNION ALL
SELECT edition, variant, players, level, created, rules, agent, player, 'victory_margin', margin, count(*)
FROM seated WHERE margin >= 0 GROUP BY ALL
