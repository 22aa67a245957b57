-- Seat advantage by player count: mean win_share by position in epoch 1's turn order
-- ($by = 'position', the default; 1 = first mover) or by seat letter ($by = 'seat'), against
-- the fair share 1/N, with 95% intervals. Filters (NULL = all): $edition $variant $players
-- $source $date_from $date_to $agent $player.
WITH sums AS (
    SELECT players,
           CASE coalesce($by, 'position') WHEN 'seat' THEN seat
                ELSE CAST(turn_position AS VARCHAR) END AS position,
           CAST(sum(n) AS BIGINT) AS seats, sum(sum_win) AS total, sum(sumsq_win) AS total_sq
    FROM agg_seats
    WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
    GROUP BY ALL
)
SELECT players, position, seats, total / seats AS mean_win_share,
       total / seats - half_width(seats, total, total_sq) AS ci_low,
       total / seats + half_width(seats, total, total_sq) AS ci_high,
       1.0 / players AS fair_share
FROM sums
ORDER BY players, position
