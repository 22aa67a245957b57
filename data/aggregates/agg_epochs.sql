-- The games and their epochs (occupancy's denominator), for every seat's agent and player or
-- every seat (`all_seats`), and every epoch or all of them (`all_epochs`; the rolled-up key is
-- NULL): the games, Σ E_g and Σ E_g² (E_g the game's epochs in the row: 1 for one epoch).
WITH played AS (SELECT DISTINCT game_id, epoch FROM epoch_scores),
seated AS (SELECT DISTINCT game_id, agent, player FROM seats),
per_game AS (
    SELECT g.edition, g.variant, g.players, gl.level, g.created, g.rules,
           grouping(s.agent) = 1 AS all_seats, grouping(p.epoch) = 1 AS all_epochs,
           s.agent, s.player, p.epoch, count(DISTINCT p.epoch) AS epochs
    FROM played p JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
    JOIN seated s USING (game_id)
    GROUP BY g.edition, g.variant, g.players, gl.level, g.created, g.rules, game_id,
             CUBE ((s.agent, s.player), p.epoch)
)
SELECT edition, variant, players, level, created, rules, all_seats, all_epochs, agent, player, epoch,
       count(*) AS games, CAST(sum(epochs) AS BIGINT) AS epochs,
       CAST(sum(epochs * epochs) AS BIGINT) AS epochs_sq
FROM per_game
GROUP BY ALL
