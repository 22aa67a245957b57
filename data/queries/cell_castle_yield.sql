-- Castle yield per cell: mean gold a castle on the cell earned in its epoch (row + column,
-- wizard bonus included), or per rank unit (÷ effective rank) when $per_rank_unit is true; with
-- $pooled (the default) each cell shows its mirror class (the cell and its left-right and
-- top-bottom mirror images together). Filters (NULL = all): $edition $variant $players $level
-- $source $date_from $date_to $agent $player $epoch $rank. One row per board cell: the value, the
-- castles and games behind it, a 95% interval with the game as the unit (a ratio of sums over
-- games, docs/metrics.md), and the whole board's value, castles and games.
WITH chosen AS (
    SELECT cell_scope, cell, n, games, game_n_sq,
           CASE WHEN coalesce($per_rank_unit, false) THEN sum_unit ELSE sum_gold END AS total,
           CASE WHEN coalesce($per_rank_unit, false) THEN game_unit_sq ELSE game_gold_sq END
               AS total_sq,
           CASE WHEN coalesce($per_rank_unit, false) THEN game_unit_n ELSE game_gold_n END
               AS total_n
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
           CAST(sum(games) AS BIGINT) AS games, sum(game_n_sq) AS n_sq, sum(total) AS total,
           sum(total_sq) AS total_sq, sum(total_n) AS total_n
    FROM chosen GROUP BY ALL
),
board AS (SELECT * FROM sums WHERE cell_scope = 'board')
SELECT cells.cell, cells.cell_row, cells.cell_column,
       s.total / s.observations AS value, coalesce(s.observations, 0) AS observations,
       coalesce(s.games, 0) AS games,
       s.total / s.observations
           - ratio_half_width(s.games, s.total, s.observations, s.total_sq, s.total_n, s.n_sq)
           AS ci_low,
       s.total / s.observations
           + ratio_half_width(s.games, s.total, s.observations, s.total_sq, s.total_n, s.n_sq)
           AS ci_high,
       b.total / b.observations AS board_value, coalesce(b.observations, 0) AS board_observations,
       coalesce(b.games, 0) AS board_games, coalesce($pooled, true) AS pooled
FROM lake_cells($rules, $board_rows, $board_columns) cells
LEFT JOIN board b ON true
LEFT JOIN sums s ON s.cell_scope <> 'board'
    AND s.cell = CASE WHEN coalesce($pooled, true) THEN cells.mirror_cell ELSE cells.cell END
ORDER BY cells.cell_row, cells.cell_column
