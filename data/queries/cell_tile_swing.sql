-- Tile swing per cell: mean counterfactual impact of the tiles placed on the cell, on the
-- placer ($perspective = 'placer', the default), on each opponent ('opponents': per placement,
-- its mean over the opponents), or the net swing, placer minus mean opponent ('net'); the
-- placements are the observations.
-- Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to $agent $player
-- $epoch $tile. $agent/$player select the placer.
WITH sums AS (
    SELECT cell,
           CAST(sum(n) AS BIGINT) AS observations,
           sum(CASE coalesce($perspective, 'placer') WHEN 'opponents' THEN sum_opponent
               WHEN 'net' THEN sum_net ELSE sum_own END) AS total,
           sum(CASE coalesce($perspective, 'placer') WHEN 'opponents' THEN sumsq_opponent
               WHEN 'net' THEN sumsq_net ELSE sumsq_own END) AS total_sq
    FROM agg_tile_cells
    WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND ($epoch IS NULL OR epoch = $epoch) AND ($tile IS NULL OR tile = $tile)
    GROUP BY cell
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       s.total / s.observations AS value, coalesce(s.observations, 0) AS observations,
       s.total / s.observations - half_width(s.observations, s.total, s.total_sq) AS ci_low,
       s.total / s.observations + half_width(s.observations, s.total, s.total_sq) AS ci_high
FROM cells LEFT JOIN sums s USING (cell)
ORDER BY cells.cell_row, cells.cell_column
