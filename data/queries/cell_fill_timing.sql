-- Fill timing per cell: mean turn of the epoch at which the cell was filled, as a fraction
-- of the epoch's turns (0 = first turn, 1 = last). Filters (NULL = all): $edition $variant
-- $players $level $source $date_from $date_to $agent $player $epoch ($agent/$player: who filled
-- it). One row per board cell: the value, the pieces and games behind it, a 95% interval with the
-- game as the unit (a ratio of sums over games, docs/metrics.md) kept within [0, 1], and the
-- whole board's value and pieces, and the games the filters keep (those the agent or player
-- sat in when one is chosen).
WITH sums AS (
    SELECT cell, CAST(sum(n) AS BIGINT) AS observations, CAST(sum(games) AS BIGINT) AS games,
           sum(game_n_sq) AS n_sq, sum(sum_fill) AS total, sum(game_fill_sq) AS total_sq,
           sum(game_fill_n) AS total_n
    FROM agg_cells
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND all_seats = ($agent IS NULL AND $player IS NULL)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND all_epochs = ($epoch IS NULL) AND ($epoch IS NULL OR epoch = $epoch)
      AND all_kinds
    GROUP BY cell
),
board AS (
    SELECT CAST(coalesce(sum(games), 0) AS BIGINT) AS board_games FROM agg_epochs
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND all_seats = ($agent IS NULL AND $player IS NULL)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND all_epochs = ($epoch IS NULL) AND ($epoch IS NULL OR epoch = $epoch)
),
cell_means AS (
    SELECT cells.cell, cells.cell_row, cells.cell_column, s.observations, s.games,
           s.total, s.total / s.observations AS mean,
           ratio_half_width(s.games, s.total, s.observations, s.total_sq, s.total_n, s.n_sq)
               AS half
    FROM lake_cells($rules, $board_rows, $board_columns) cells
    LEFT JOIN sums s USING (cell)
)
SELECT cell, cell_row, cell_column, mean AS value, coalesce(observations, 0) AS observations,
       coalesce(games, 0) AS games,
       greatest(mean - half, 0) AS ci_low, least(mean + half, 1) AS ci_high,
       sum(total) OVER () / sum(observations) OVER () AS board_value,
       CAST(coalesce(sum(observations) OVER (), 0) AS BIGINT) AS board_observations,
       board_games
FROM cell_means CROSS JOIN board
ORDER BY cell_row, cell_column
