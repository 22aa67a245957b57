-- Tile impacts per tile kind (tile impact page), with the sums an interval that treats the game
-- as the unit needs, as agg_castles: over the games, each game's count of placements n_g and
-- sums S_g of their impacts, for every seat, epoch, timing (fifth of the epoch) and way the
-- tile was placed or one of them (`all_seats`, `all_epochs`, `all_timings`, `all_placed_by`:
-- the rolled-up key is NULL). A placement's impact on its opponents is their mean (the
-- placement is the observation).
WITH impacts AS (  -- each placement's impact on its placer, and on every seat together
    SELECT game_id, epoch, turn, CAST(sum(impact) FILTER (WHERE seat = placer) AS SMALLINT) AS own,
           CAST(sum(impact) AS INTEGER) AS total
    FROM tile_impacts GROUP BY game_id, epoch, turn
),
placements AS (
    SELECT t.*, g.edition, g.variant, g.players, gl.level, g.created, g.rules, s.agent, s.player,
           i.own, i.total
    FROM tile_placements t JOIN impacts i USING (game_id, epoch, turn)
    JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
    JOIN seats s ON s.game_id = t.game_id AND s.seat = t.placer
),
swings AS (
    SELECT edition, variant, players, level, created, rules, agent, player, epoch, timing, placed_by,
           tile, game_id, CAST(own AS DOUBLE) AS own, (total - own) / (players - 1) AS opponent
    FROM placements
),
per_game AS (
    SELECT edition, variant, players, level, created, rules,
           grouping(agent) = 1 AS all_seats, grouping(epoch) = 1 AS all_epochs,
           grouping(timing) = 1 AS all_timings, grouping(placed_by) = 1 AS all_placed_by,
           agent, player, epoch, timing, placed_by, tile,
           count(*) AS n, sum(own) AS own, sum(opponent) AS opponent,
           sum(own - opponent) AS net
    FROM swings
    GROUP BY edition, variant, players, level, created, rules, tile, game_id,
             CUBE ((agent, player), epoch, timing, placed_by)
)
SELECT edition, variant, players, level, created, rules, all_seats, all_epochs, all_timings,
       all_placed_by, agent, player, epoch, timing, placed_by, tile,
       CAST(sum(n) AS BIGINT) AS n, count(*) AS games, CAST(sum(n * n) AS BIGINT) AS game_n_sq,
       sum(own) AS sum_own, sum(own ^ 2) AS game_own_sq, sum(own * n) AS game_own_n,
       sum(opponent) AS sum_opponent, sum(opponent ^ 2) AS game_opponent_sq,
       sum(opponent * n) AS game_opponent_n,
       sum(net) AS sum_net, sum(net ^ 2) AS game_net_sq, sum(net * n) AS game_net_n
FROM per_game
GROUP BY ALL
