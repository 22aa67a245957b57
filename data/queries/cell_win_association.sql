-- Win association per cell: the mean win_share of the owners of the castles placed on the cell
-- (each castle once), minus the same mean over every castle the filters keep (`baseline`,
-- weighted by castle, so that the board's castle-weighted mean of the values is 0 and random
-- play reads 0 in every cell); with $pooled (the default) each cell shows its mirror class.
-- Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to $agent
-- $player $epoch $rank. The 95% interval is the cell's mean's, with the game as the unit
-- (docs/metrics.md), kept within [0, 1] before the baseline is taken off.
WITH chosen AS (
    SELECT cell_scope, cell, n, games, game_n_sq, sum_win, game_win_sq, game_win_n
    FROM agg_castles
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND cell_scope IN (CASE WHEN coalesce($pooled, true) THEN 'mirror' ELSE 'cell' END, 'board')
      AND all_seats = ($agent IS NULL AND $player IS NULL)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND all_epochs = ($epoch IS NULL) AND ($epoch IS NULL OR epoch = $epoch)
      AND all_ranks = ($rank IS NULL) AND ($rank IS NULL OR rank = $rank)
),
sums AS (
    SELECT cell_scope, cell, CAST(sum(n) AS BIGINT) AS observations,
           CAST(sum(games) AS BIGINT) AS games, sum(game_n_sq) AS n_sq, sum(sum_win) AS total,
           sum(game_win_sq) AS total_sq, sum(game_win_n) AS total_n
    FROM chosen GROUP BY ALL
),
board AS (SELECT * FROM sums WHERE cell_scope = 'board'),
cell_means AS (
    SELECT cell, observations, games, total / observations AS mean,
           ratio_half_width(games, total, observations, total_sq, total_n, n_sq) AS half
    FROM sums WHERE cell_scope <> 'board'
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       m.mean - b.total / b.observations AS value, coalesce(m.observations, 0) AS observations,
       coalesce(m.games, 0) AS games,
       greatest(m.mean - m.half, 0) - b.total / b.observations AS ci_low,
       least(m.mean + m.half, 1) - b.total / b.observations AS ci_high,
       m.mean AS mean_win_share, b.total / b.observations AS baseline,
       0.0 AS board_value, coalesce(b.observations, 0) AS board_observations,
       coalesce(b.games, 0) AS board_games, coalesce($pooled, true) AS pooled
FROM lake_cells($rules, $board_rows, $board_columns) cells
LEFT JOIN board b ON true
LEFT JOIN cell_means m
    ON m.cell = CASE WHEN coalesce($pooled, true) THEN cells.mirror_cell ELSE cells.cell END
ORDER BY cells.cell_row, cells.cell_column
