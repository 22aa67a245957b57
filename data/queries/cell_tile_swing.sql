-- Tile swing per cell: mean counterfactual impact of the tiles placed on the cell, on the
-- placer ($perspective = 'placer', the default), on each opponent ('opponents': per placement,
-- its mean over the opponents), or the net swing, placer minus mean opponent ('net'); the
-- placements are the observations. With $pooled (the default) each cell shows its mirror class.
-- Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to $agent
-- $player $epoch ($agent/$player select the placer). The 95% interval treats the game as the
-- unit (docs/metrics.md); the board's value, placements and games come with every row.
WITH chosen AS (
    SELECT cell_scope, cell, n, games, game_n_sq,
           CASE coalesce($perspective, 'placer') WHEN 'opponents' THEN sum_opponent
               WHEN 'net' THEN sum_net ELSE sum_own END AS total,
           CASE coalesce($perspective, 'placer') WHEN 'opponents' THEN game_opponent_sq
               WHEN 'net' THEN game_net_sq ELSE game_own_sq END AS total_sq,
           CASE coalesce($perspective, 'placer') WHEN 'opponents' THEN game_opponent_n
               WHEN 'net' THEN game_net_n ELSE game_own_n END AS total_n
    FROM agg_tile_cells
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND cell_scope IN (CASE WHEN coalesce($pooled, true) THEN 'mirror' ELSE 'cell' END, 'board')
      AND all_seats = ($agent IS NULL AND $player IS NULL)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND all_epochs = ($epoch IS NULL) AND ($epoch IS NULL OR epoch = $epoch)
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
