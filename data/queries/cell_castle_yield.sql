-- Castle yield per cell: mean gold a castle on the cell earned in its epoch (row + column,
-- wizard bonus included), or per rank unit (÷ effective rank) when $per_rank_unit is true.
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to $agent $player
-- $epoch $rank. One row per cell (30), with the count behind each value and a 95% interval.
WITH seats_in AS (
    SELECT game_id, seat FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
),
observed AS (
    SELECT c.cell,
           CASE WHEN coalesce($per_rank_unit, false) THEN c.gold / c.effective_rank
                ELSE c.gold END AS yield
    FROM castles c
    JOIN seats_in USING (game_id, seat)
    WHERE ($epoch IS NULL OR c.epoch = $epoch) AND ($rank IS NULL OR c.rank = $rank)
),
per_cell AS (
    SELECT cell, avg(yield) AS value, count(*) AS observations,
           1.96 * stddev_samp(yield) / sqrt(count(*)) AS half_width
    FROM observed GROUP BY cell
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       p.value, coalesce(p.observations, 0) AS observations,
       p.value - p.half_width AS ci_low, p.value + p.half_width AS ci_high
FROM cells LEFT JOIN per_cell p USING (cell)
ORDER BY cells.cell_row, cells.cell_column
