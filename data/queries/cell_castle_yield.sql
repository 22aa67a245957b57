-- Castle yield per cell: mean gold a castle on the cell earned in its epoch (row + column,
-- wizard bonus included), or per rank unit (÷ effective rank) when $per_rank_unit is true.
-- Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to $agent $player
-- $epoch $rank. One row per cell (30), with the count behind each value and a 95% interval.
WITH sums AS (
    SELECT cell, CAST(sum(n) AS BIGINT) AS observations,
           sum(CASE WHEN coalesce($per_rank_unit, false) THEN sum_unit ELSE sum_gold END) AS total,
           sum(CASE WHEN coalesce($per_rank_unit, false) THEN sumsq_unit ELSE sumsq_gold END)
               AS total_sq
    FROM agg_castles
    WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND ($epoch IS NULL OR epoch = $epoch) AND ($rank IS NULL OR rank = $rank)
    GROUP BY cell
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       s.total / s.observations AS value, coalesce(s.observations, 0) AS observations,
       s.total / s.observations - half_width(s.observations, s.total, s.total_sq) AS ci_low,
       s.total / s.observations + half_width(s.observations, s.total, s.total_sq) AS ci_high
FROM cells LEFT JOIN sums s USING (cell)
ORDER BY cells.cell_row, cells.cell_column
