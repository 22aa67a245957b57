-- Agent ladder from simulated games: per agent, seats played, mean win_share and mean partial
-- win w = (utility + 1)/2 with 95% intervals, and an Elo-style rating 400·log10(w/(1−w))
-- against the field (with the interval mapped the same way). Filters (NULL = all): $edition
-- $variant $players $date_from $date_to.
WITH seats_in AS (
    SELECT agent, win_share, (utility + 1) / 2 AS partial_win
    FROM filtered_seats($edition, $variant, $players, 'simulated', $date_from, $date_to, NULL, NULL)
    WHERE agent IS NOT NULL
),
summary AS (
    SELECT agent, count(*) AS seats, avg(win_share) AS mean_win_share,
           1.96 * stddev_samp(win_share) / sqrt(count(*)) AS win_share_half_width,
           avg(partial_win) AS partial_win,
           1.96 * stddev_samp(partial_win) / sqrt(count(*)) AS partial_win_half_width
    FROM seats_in GROUP BY agent
),
clamped AS (
    SELECT *, least(greatest(partial_win, 0.001), 0.999) AS p,
           least(greatest(partial_win - partial_win_half_width, 0.001), 0.999) AS p_low,
           least(greatest(partial_win + partial_win_half_width, 0.001), 0.999) AS p_high
    FROM summary
)
SELECT agent, seats, mean_win_share, win_share_half_width, partial_win, partial_win_half_width,
       400 * log10(p / (1 - p)) AS rating,
       400 * log10(p_low / (1 - p_low)) AS rating_low,
       400 * log10(p_high / (1 - p_high)) AS rating_high
FROM clamped
ORDER BY rating DESC
