-- Occupancy per cell: share of epochs in which the cell held a piece of $piece_kind at the
-- end ('castle', 'resource', 'hazard', 'MT', 'DR', 'GM', 'WZ'; NULL = any piece), with a
-- Wilson 95% interval. Filters (NULL = all): $edition $variant $players $source $date_from
-- $date_to $epoch. $agent/$player select whose castles or tiles count.
WITH games_in AS (
    SELECT game_id FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to)
),
seats_in AS (
    SELECT game_id, seat FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
),
epochs AS (
    SELECT count(DISTINCT (e.game_id, e.epoch)) AS n
    FROM epoch_scores e JOIN games_in USING (game_id)
    WHERE $epoch IS NULL OR e.epoch = $epoch
),
placed AS (
    SELECT m.cell,
           CASE WHEN m.kind = 'castle' THEN 'castle'
                WHEN m.piece LIKE '+%' THEN 'resource'
                WHEN m.piece LIKE '-%' THEN 'hazard'
                ELSE m.piece END AS piece_kind
    FROM moves m JOIN seats_in USING (game_id, seat)
    WHERE m.kind <> 'pass' AND ($epoch IS NULL OR m.epoch = $epoch)
),
per_cell AS (
    SELECT cell, count(*) AS hits FROM placed
    WHERE $piece_kind IS NULL OR piece_kind = $piece_kind
    GROUP BY cell
),
shares AS (
    SELECT cells.*, coalesce(p.hits, 0) AS hits, epochs.n AS observations,
           coalesce(p.hits, 0) / nullif(epochs.n, 0) AS value
    FROM cells CROSS JOIN epochs LEFT JOIN per_cell p USING (cell)
)
SELECT cell, cell_row, cell_column, value, observations,
       (value + 1.92 / observations - 1.96 * sqrt(value * (1 - value) / observations
           + 0.9604 / observations ^ 2)) / (1 + 3.8416 / observations) AS ci_low,
       (value + 1.92 / observations + 1.96 * sqrt(value * (1 - value) / observations
           + 0.9604 / observations ^ 2)) / (1 + 3.8416 / observations) AS ci_high
FROM shares
ORDER BY cell_row, cell_column
