-- Seat advantage by player count: mean win_share by position in epoch 1's turn order
-- ($by = 'position', the default; 1 = first mover) or by seat letter ($by = 'seat'), against
-- the fair share 1/N, with 95% Wilson intervals (within [0, 1]; a position has one seat a game,
-- so the seats are independent). Filters (NULL = all): $edition $variant $players
-- $source $date_from $date_to $agent $player.
WITH sums AS (
    SELECT players,
           CASE coalesce($by, 'position') WHEN 'seat' THEN seat
                ELSE CAST(turn_position AS VARCHAR) END AS position,
           CAST(sum(n) AS BIGINT) AS seats, sum(sum_win) AS total
    FROM agg_seats
    WHERE kept(edition, variant, players, level, source, created, rules,
         $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
    GROUP BY ALL
)
SELECT players, position, seats, total / seats AS mean_win_share,
       wilson(total, seats, -1) AS ci_low, wilson(total, seats, 1) AS ci_high,
       1.0 / players AS fair_share
FROM sums
ORDER BY players, position
