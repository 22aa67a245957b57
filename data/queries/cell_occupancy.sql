-- Occupancy per cell: share of epochs in which the cell held a piece of $piece_kind at the
-- end (a piece kind of the `pieces` view: 'castle', 'resource', 'hazard' or a special tile's
-- token; NULL = any piece), with a Wilson 95% interval. Filters (NULL = all): $edition
-- $variant $players $level $source $date_from $date_to $epoch; $agent/$player select whose
-- castles or tiles count.
WITH epochs AS (
    SELECT coalesce(CAST(sum(n) AS BIGINT), 0) AS n FROM agg_epochs
    WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
      AND ($epoch IS NULL OR epoch = $epoch)
),
hits AS (
    SELECT cell, CAST(sum(n) AS BIGINT) AS hits FROM agg_cells
    WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND ($epoch IS NULL OR epoch = $epoch)
      AND ($piece_kind IS NULL OR piece_kind = $piece_kind)
    GROUP BY cell
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       coalesce(h.hits, 0) / nullif(e.n, 0) AS value, e.n AS observations,
       wilson(coalesce(h.hits, 0), nullif(e.n, 0), -1) AS ci_low,
       wilson(coalesce(h.hits, 0), nullif(e.n, 0), 1) AS ci_high
FROM cells CROSS JOIN epochs e LEFT JOIN hits h USING (cell)
ORDER BY cells.cell_row, cells.cell_column
