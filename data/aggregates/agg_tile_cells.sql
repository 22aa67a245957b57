-- Tile impacts per cell (every tile kind together), with the sums an interval that treats the
-- game as the unit needs, as agg_castles (its cell scopes and rolled-up keys). A placement's
-- impact on its opponents is their mean (the placement is the observation).
WITH impacts AS (  -- each placement's impact on its placer, and on every seat together
    SELECT game_id, epoch, turn, CAST(sum(impact) FILTER (WHERE seat = placer) AS SMALLINT) AS own,
           CAST(sum(impact) AS INTEGER) AS total
    FROM tile_impacts GROUP BY game_id, epoch, turn
),
placements AS (
    SELECT t.*, g.edition, g.variant, g.players, gl.level, g.created, g.rules, s.agent, s.player,
           cl.mirror_cell,
           i.own, i.total
    FROM tile_placements t JOIN impacts i USING (game_id, epoch, turn)
    JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
    JOIN seats s ON s.game_id = t.game_id AND s.seat = t.placer
    JOIN rule_set_cells cl ON cl.rules = g.rules AND cl.cell = t.cell
),
swings AS (
    SELECT edition, variant, players, level, created, rules, agent, player, epoch, cell,
           mirror_cell, game_id, CAST(own AS DOUBLE) AS own, (total - own) / (players - 1) AS opponent
    FROM placements
),
scoped AS (
    SELECT * EXCLUDE (mirror_cell), 'cell' AS cell_scope FROM swings
    UNION ALL BY NAME
    SELECT * EXCLUDE (cell, mirror_cell), mirror_cell AS cell, 'mirror' AS cell_scope FROM swings
    UNION ALL BY NAME
    SELECT * EXCLUDE (cell, mirror_cell), NULL AS cell, 'board' AS cell_scope FROM swings
),
per_game AS (
    SELECT edition, variant, players, level, created, rules, cell_scope,
           grouping(agent) = 1 AS all_seats, grouping(epoch) = 1 AS all_epochs,
           agent, player, epoch, cell,
           count(*) AS n, sum(own) AS own, sum(opponent) AS opponent,
           sum(own - opponent) AS net
    FROM scoped
    GROUP BY edition, variant, players, level, created, rules, cell_scope, cell, game_id,
             CUBE ((agent, player), epoch)
)
SELECT edition, variant, players, level, created, rules, cell_scope, all_seats, all_epochs,
       agent, player, epoch, cell,
       CAST(sum(n) AS BIGINT) AS n, count(*) AS games, CAST(sum(n * n) AS BIGINT) AS game_n_sq,
       sum(own) AS sum_own, sum(own ^ 2) AS game_own_sq, sum(own * n) AS game_own_n,
       sum(opponent) AS sum_opponent, sum(opponent ^ 2) AS game_opponent_sq,
       sum(opponent * n) AS game_opponent_n,
       sum(net) AS sum_net, sum(net ^ 2) AS game_net_sq, sum(net * n) AS game_net_n
FROM per_game
GROUP BY ALL
