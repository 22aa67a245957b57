-- Tile impacts per tile kind, epoch, timing and how the tile was placed (tile impact page).
-- A placement's impact on its opponents is their mean (the placement is the observation).
WITH impacts AS (  -- each placement's impact on its placer, and on every seat together
    SELECT game_id, epoch, turn, CAST(sum(impact) FILTER (WHERE seat = placer) AS SMALLINT) AS own,
           CAST(sum(impact) AS INTEGER) AS total
    FROM tile_impacts GROUP BY game_id, epoch, turn
),
placements AS (
    SELECT t.*, g.edition, g.variant, g.players, gl.level, g.created, s.agent, s.player,
           i.own, i.total
    FROM tile_placements t JOIN impacts i USING (game_id, epoch, turn)
    JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
    JOIN seats s ON s.game_id = t.game_id AND s.seat = t.placer
),
swings AS (
    SELECT *, (total - own) / (players - 1) AS opponent FROM placements
)
SELECT edition, variant, players, level, created, agent, player, epoch, timing, placed_by, tile,
       count(*) AS n,
       sum(own) AS sum_own, sum(own ^ 2) AS sumsq_own,
       sum(opponent) AS sum_opponent, sum(opponent ^ 2) AS sumsq_opponent,
       sum(own - opponent) AS sum_net, sum((own - opponent) ^ 2) AS sumsq_net
FROM swings
GROUP BY ALL
