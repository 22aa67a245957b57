-- Tile impacts per tile kind, epoch, timing and how the tile was placed (tile impact page).
WITH placements AS (
    SELECT t.*, g.edition, g.variant, g.players, g.created, s.agent, s.player,
           CASE t.placer WHEN 'A' THEN t.impact_a WHEN 'B' THEN t.impact_b
                WHEN 'C' THEN t.impact_c ELSE t.impact_d END AS own,
           coalesce(t.impact_a, 0) + coalesce(t.impact_b, 0) + coalesce(t.impact_c, 0)
               + coalesce(t.impact_d, 0) AS total,
           coalesce(t.impact_a ^ 2, 0) + coalesce(t.impact_b ^ 2, 0)
               + coalesce(t.impact_c ^ 2, 0) + coalesce(t.impact_d ^ 2, 0) AS total_sq
    FROM tile_placements t JOIN games g USING (game_id)
    JOIN seats s ON s.game_id = t.game_id AND s.seat = t.placer
),
swings AS (
    SELECT *, total - own AS others, total_sq - own ^ 2 AS others_sq,
           own - (total - own) / (players - 1) AS net
    FROM placements
)
SELECT edition, variant, players, created, agent, player, epoch, timing, placed_by, tile,
       count(*) AS n,
       sum(own) AS sum_own, sum(own ^ 2) AS sumsq_own,
       sum(players - 1) AS n_opponents, sum(others) AS sum_opponents,
       sum(others_sq) AS sumsq_opponents,
       sum(net) AS sum_net, sum(net ^ 2) AS sumsq_net
FROM swings
GROUP BY ALL
