-- Tile impact per tile kind: mean counterfactual impact on the placer, on each opponent, and
-- the net swing (placer − mean opponent), with 95% intervals, split by $split: NULL/'all',
-- 'epoch', 'timing' (fifth of the epoch, 1–5) or 'placed_by' ('drawn' / 'start').
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to $agent $player
-- $epoch ($agent/$player select the placer).
WITH placers AS (
    SELECT game_id, seat FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
),
placements AS (
    SELECT t.tile,
           CASE coalesce($split, 'all')
               WHEN 'epoch' THEN CAST(t.epoch AS VARCHAR)
               WHEN 'timing' THEN CAST(t.timing AS VARCHAR)
               WHEN 'placed_by' THEN t.placed_by
               ELSE 'all' END AS split,
           sum(t.impact) FILTER (WHERE t.seat = t.placer) AS placer_impact,
           avg(t.impact) FILTER (WHERE t.seat <> t.placer) AS opponent_impact
    FROM tile_impacts t
    JOIN placers p ON p.game_id = t.game_id AND p.seat = t.placer
    WHERE $epoch IS NULL OR t.epoch = $epoch
    GROUP BY t.game_id, t.epoch, t.cell, t.tile, split
),
swings AS (SELECT *, placer_impact - opponent_impact AS net_swing FROM placements)
SELECT tile, split, count(*) AS placements,
       avg(placer_impact) AS placer_impact,
       1.96 * stddev_samp(placer_impact) / sqrt(count(*)) AS placer_half_width,
       avg(opponent_impact) AS opponent_impact,
       1.96 * stddev_samp(opponent_impact) / sqrt(count(opponent_impact)) AS opponent_half_width,
       avg(net_swing) AS net_swing,
       1.96 * stddev_samp(net_swing) / sqrt(count(net_swing)) AS net_half_width
FROM swings
GROUP BY tile, split
ORDER BY CASE WHEN tile LIKE '+%' THEN 0 WHEN tile LIKE '-%' THEN 1 ELSE 2 END,
         abs(TRY_CAST(tile AS INTEGER)), tile, split
