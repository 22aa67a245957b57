-- Seat advantage by player count: mean win_share by position in epoch 1's turn order
-- ($by = 'position', the default; 1 = first mover) or by seat letter ($by = 'seat'), against
-- the fair share 1/N, with 95% intervals. Filters (NULL = all): $edition $variant $players
-- $source $date_from $date_to $agent $player.
SELECT game_players AS players,
       CASE coalesce($by, 'position') WHEN 'seat' THEN seat
            ELSE CAST(turn_position AS VARCHAR) END AS position,
       count(*) AS seats, avg(win_share) AS mean_win_share,
       avg(win_share) - 1.96 * stddev_samp(win_share) / sqrt(count(*)) AS ci_low,
       avg(win_share) + 1.96 * stddev_samp(win_share) / sqrt(count(*)) AS ci_high,
       1.0 / game_players AS fair_share
FROM filtered_seats($edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
GROUP BY ALL
ORDER BY players, position
