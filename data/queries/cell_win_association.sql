-- Win association per cell: mean win_share of seats that had a castle on the cell (in any
-- epoch, or in $epoch), minus the mean win_share over all seats of the same games (`baseline`).
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to $agent $player
-- $epoch $rank.
WITH seats_in AS (
    SELECT game_id, seat, win_share FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
),
baseline AS (SELECT avg(win_share) AS mean FROM seats_in),
holders AS (
    SELECT DISTINCT c.cell, c.game_id, c.seat
    FROM castles c
    WHERE ($epoch IS NULL OR c.epoch = $epoch) AND ($rank IS NULL OR c.rank = $rank)
),
per_cell AS (
    SELECT h.cell, avg(s.win_share) AS mean_win_share, count(*) AS observations,
           1.96 * stddev_samp(s.win_share) / sqrt(count(*)) AS half_width
    FROM holders h JOIN seats_in s USING (game_id, seat)
    GROUP BY h.cell
)
SELECT cells.cell, cells.cell_row, cells.cell_column,
       p.mean_win_share - b.mean AS value, coalesce(p.observations, 0) AS observations,
       p.mean_win_share - b.mean - p.half_width AS ci_low,
       p.mean_win_share - b.mean + p.half_width AS ci_high,
       p.mean_win_share, b.mean AS baseline
FROM cells CROSS JOIN baseline b LEFT JOIN per_cell p USING (cell)
ORDER BY cells.cell_row, cells.cell_column
