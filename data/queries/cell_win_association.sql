-- Win association per cell: mean win_share of the owners of the castles placed on the cell
-- (in $epoch, or in any epoch, each castle counting once), minus the mean win_share over all
-- seats (`baseline`). Filters (NULL = all): $edition $variant $players $level $source $date_from
-- $date_to $agent $player $epoch $rank.
WITH baseline AS (
    SELECT sum(sum_win) / CAST(sum(n) AS BIGINT) AS mean FROM agg_seats WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
),
sums AS (
    SELECT cell, CAST(sum(n) AS BIGINT) AS observations, sum(sum_win) AS total, sum(sumsq_win) AS total_sq
    FROM agg_castles
    WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND ($epoch IS NULL OR epoch = $epoch) AND ($rank IS NULL OR rank = $rank)
    GROUP BY cell
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       s.total / s.observations - b.mean AS value, coalesce(s.observations, 0) AS observations,
       s.total / s.observations - b.mean
           - half_width(s.observations, s.total, s.total_sq) AS ci_low,
       s.total / s.observations - b.mean
           + half_width(s.observations, s.total, s.total_sq) AS ci_high,
       s.total / s.observations AS mean_win_share, b.mean AS baseline
FROM cells CROSS JOIN baseline b LEFT JOIN sums s USING (cell)
ORDER BY cells.cell_row, cells.cell_column
