-- Fill timing per cell: mean turn of the epoch at which the cell was filled, as a fraction
-- of the epoch's turns (0 = first turn, 1 = last). Filters (NULL = all): $edition $variant
-- $players $source $date_from $date_to $agent $player $epoch ($agent/$player: who filled it).
WITH seats_in AS (
    SELECT game_id, seat FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
),
epoch_turns AS (
    SELECT game_id, epoch, max(turn) AS turns FROM moves GROUP BY ALL
),
observed AS (
    SELECT m.cell, (m.turn - 1) / greatest(e.turns - 1, 1) AS fill
    FROM moves m
    JOIN seats_in USING (game_id, seat)
    JOIN epoch_turns e USING (game_id, epoch)
    WHERE m.kind <> 'pass' AND ($epoch IS NULL OR m.epoch = $epoch)
),
per_cell AS (
    SELECT cell, avg(fill) AS value, count(*) AS observations,
           1.96 * stddev_samp(fill) / sqrt(count(*)) AS half_width
    FROM observed GROUP BY cell
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       p.value, coalesce(p.observations, 0) AS observations,
       p.value - p.half_width AS ci_low, p.value + p.half_width AS ci_high
FROM cells LEFT JOIN per_cell p USING (cell)
ORDER BY cells.cell_row, cells.cell_column
