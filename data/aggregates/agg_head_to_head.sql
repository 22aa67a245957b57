-- Agents against each other, in the games where both sat: the share of their seat pairs in which
-- `agent` finished with more gold than `opponent` (a tie counts a half), one observation per
-- game (head to head).
WITH per_game AS (
    SELECT a.game_id, a.agent, b.agent AS opponent,
           avg(CASE WHEN a.final_gold > b.final_gold THEN 1.0
                    WHEN a.final_gold = b.final_gold THEN 0.5 ELSE 0.0 END) AS score
    FROM seats a JOIN seats b ON a.game_id = b.game_id AND a.agent <> b.agent
    GROUP BY ALL
)
SELECT g.edition, g.variant, g.players, gl.level, g.created, g.rules, p.agent, p.opponent,
       count(*) AS n, sum(p.score) AS sum_score
FROM per_game p JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
GROUP BY ALL
