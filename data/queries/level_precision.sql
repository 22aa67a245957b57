-- How precise each play level's figures are at the filters chosen (the pages' default level,
-- data/levels.py): `seat_half_width`, the widest half of any seat's 95% Wilson interval of mean
-- win share (by player count and position in epoch 1's turn order; one seat a position a game),
-- and `cell_half_width`, the median over the board's cells of the half width of the castle-yield
-- interval, clustered by game (a game's castles share its board and players: each game is one
-- observation of the ratio of its gold to its castles: agg_castles' sums over games, every rank,
-- each cell alone, not pooled with its mirror images); a cell with castles in fewer than two
-- games counts as infinitely wide. Filters (NULL = all): $edition $variant $players $source
-- $date_from $date_to $rules $agent $player (the seats and castles of that agent or player) $epoch
-- (castles of that epoch).
WITH seat_sums AS (
    SELECT level, players, turn_position, sum(n) AS seats, sum(sum_win) AS wins
    FROM agg_seats
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, NULL, $source, $date_from, $date_to, $rules)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
    GROUP BY ALL
), seat_widths AS (
    SELECT level,
           max(greatest(wins / seats - wilson(wins, seats, -1),
                        wilson(wins, seats, 1) - wins / seats)) AS seat_half_width
    FROM seat_sums GROUP BY level
), cell_sums AS (  -- each game's castles and gold on the cell, summed over games
    SELECT level, cell, sum(games) AS games, sum(n) AS castles, sum(sum_gold) AS gold,
           sum(game_gold_sq) AS gold_sq, sum(game_gold_n) AS gold_castles,
           sum(game_n_sq) AS castles_sq
    FROM agg_castles
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, NULL, $source, $date_from, $date_to, $rules)
      AND cell_scope = 'cell' AND all_ranks
      AND all_seats = ($agent IS NULL AND $player IS NULL)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND all_epochs = ($epoch IS NULL) AND ($epoch IS NULL OR epoch = $epoch)
    GROUP BY ALL
), cell_widths AS (
    SELECT l.level,
           median(coalesce(ratio_half_width(s.games, s.gold, s.castles, s.gold_sq,
                                            s.gold_castles, s.castles_sq), 'inf'::DOUBLE))
               AS cell_half_width
    FROM (SELECT DISTINCT level FROM seat_widths) l
    CROSS JOIN lake_cells($rules, $board_rows, $board_columns) c
    LEFT JOIN cell_sums s ON s.level = l.level AND s.cell = c.cell
    GROUP BY l.level
)
SELECT level, seat_half_width, cell_half_width
FROM seat_widths JOIN cell_widths USING (level)
ORDER BY level
