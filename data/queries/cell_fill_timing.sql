-- Fill timing per cell: mean turn of the epoch at which the cell was filled, as a fraction
-- of the epoch's turns (0 = first turn, 1 = last). Filters (NULL = all): $edition $variant
-- $players $level $source $date_from $date_to $agent $player $epoch ($agent/$player: who filled it).
WITH sums AS (
    SELECT cell, CAST(sum(n) AS BIGINT) AS observations, sum(sum_fill) AS total, sum(sumsq_fill) AS total_sq
    FROM agg_cells
    WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND ($epoch IS NULL OR epoch = $epoch)
    GROUP BY cell
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       s.total / s.observations AS value, coalesce(s.observations, 0) AS observations,
       s.total / s.observations - half_width(s.observations, s.total, s.total_sq) AS ci_low,
       s.total / s.observations + half_width(s.observations, s.total, s.total_sq) AS ci_high
FROM cells LEFT JOIN sums s USING (cell)
ORDER BY cells.cell_row, cells.cell_column
