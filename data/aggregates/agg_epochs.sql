-- How many epochs were played, per rule set and epoch number (occupancy denominators).
SELECT g.edition, g.variant, g.players, gl.level, g.created, e.epoch, count(*) AS n
FROM (SELECT DISTINCT game_id, epoch FROM epoch_scores) e JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
GROUP BY ALL
