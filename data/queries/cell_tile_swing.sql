-- Tile swing per cell: mean counterfactual impact of the tiles placed on the cell, on the
-- placer ($perspective = 'placer', the default), on each opponent ('opponents'), or the net
-- swing per placement, placer minus mean opponent ('net').
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to $agent $player
-- $epoch $tile. $agent/$player select the placer.
WITH placers AS (
    SELECT game_id, seat FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
),
impacts AS (
    SELECT t.* FROM tile_impacts t
    JOIN placers p ON p.game_id = t.game_id AND p.seat = t.placer
    WHERE ($epoch IS NULL OR t.epoch = $epoch) AND ($tile IS NULL OR t.tile = $tile)
),
observed AS (
    SELECT cell,
           CASE coalesce($perspective, 'placer')
               WHEN 'placer' THEN sum(impact) FILTER (WHERE seat = placer)
               WHEN 'net' THEN sum(impact) FILTER (WHERE seat = placer)
                   - avg(impact) FILTER (WHERE seat <> placer)
           END AS value
    FROM impacts
    GROUP BY game_id, epoch, cell
    UNION ALL
    SELECT cell, impact AS value FROM impacts
    WHERE coalesce($perspective, 'placer') = 'opponents' AND seat <> placer
),
per_cell AS (
    SELECT cell, avg(value) AS value, count(value) AS observations,
           1.96 * stddev_samp(value) / sqrt(count(value)) AS half_width
    FROM observed WHERE value IS NOT NULL GROUP BY cell
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       p.value, coalesce(p.observations, 0) AS observations,
       p.value - p.half_width AS ci_low, p.value + p.half_width AS ci_high
FROM cells LEFT JOIN per_cell p USING (cell)
ORDER BY cells.cell_row, cells.cell_column
