-- Occupancy per cell: share of epochs in which the cell held a piece of $piece_kind at the
-- end (a piece kind of the `pieces` view: 'castle', 'resource', 'hazard' or a special tile's
-- token; NULL = any piece). Filters (NULL = all): $edition $variant $players $level $source
-- $date_from $date_to $epoch; $agent/$player select whose pieces count, in the games they sat
-- in. One row per board cell: the share, the epochs and games behind it, and a 95% interval with
-- the game as the unit: a Wilson interval over the effective number of epochs, p(1 − p) over
-- the squared standard error of the ratio taken per game (an epoch's cells share its game), at
-- most the epochs themselves, so that it stays within [0, 1] (docs/metrics.md); and the whole
-- board's share.
WITH epochs AS (
    SELECT CAST(coalesce(sum(games), 0) AS BIGINT) AS games,
           CAST(coalesce(sum(epochs), 0) AS BIGINT) AS epochs, sum(epochs_sq) AS epochs_sq
    FROM agg_epochs
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND all_seats = ($agent IS NULL AND $player IS NULL)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND all_epochs = ($epoch IS NULL) AND ($epoch IS NULL OR epoch = $epoch)
),
hits AS (
    SELECT cell, CAST(sum(n) AS BIGINT) AS hits, sum(game_n_sq) AS hits_sq,
           sum(CASE WHEN all_epochs THEN game_n_epochs ELSE n END) AS hits_epochs
    FROM agg_cells
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND all_seats = ($agent IS NULL AND $player IS NULL)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND all_epochs = ($epoch IS NULL) AND ($epoch IS NULL OR epoch = $epoch)
      AND all_kinds = ($piece_kind IS NULL) AND ($piece_kind IS NULL OR piece_kind = $piece_kind)
    GROUP BY cell
),
shares AS (
    SELECT cells.cell, cells.cell_row, cells.cell_column, e.games, e.epochs,
           coalesce(h.hits, 0) / nullif(e.epochs, 0) AS share,
           ratio_half_width(e.games, coalesce(h.hits, 0), e.epochs, coalesce(h.hits_sq, 0),
                            coalesce(h.hits_epochs, 0), e.epochs_sq) / z95() AS share_error
    FROM lake_cells($rules, $board_rows, $board_columns) cells
    CROSS JOIN epochs e LEFT JOIN hits h USING (cell)
),
effective AS (  -- no interval from a single game
    SELECT *, CASE WHEN games < 2 THEN NULL
                   WHEN share_error > 0 THEN least(epochs, share * (1 - share) / share_error ^ 2)
                   ELSE epochs END AS effective_epochs
    FROM shares
)
SELECT cell, cell_row, cell_column, share AS value, epochs AS observations, games,
       wilson(share * effective_epochs, effective_epochs, -1) AS ci_low,
       wilson(share * effective_epochs, effective_epochs, 1) AS ci_high,
       avg(share) OVER () AS board_value, epochs AS board_observations, games AS board_games
FROM effective
ORDER BY cell_row, cell_column
