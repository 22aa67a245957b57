-- Agent ladder from simulated games: per agent, seats played, mean win_share and mean partial
-- win w = (utility + 1)/2 with 95% half-widths, and an Elo-style rating 400·log10(w/(1−w))
-- against the field (its interval mapped the same way). Filters (NULL = all): $edition
-- $variant $players $date_from $date_to.
WITH sums AS (
    SELECT agent, CAST(sum(n) AS BIGINT) AS seats, sum(sum_win) AS win, sum(sumsq_win) AS win_sq,
           sum(sum_partial) AS partial, sum(sumsq_partial) AS partial_sq
    FROM agg_seats
    WHERE kept(edition, variant, players, source, created,
               $edition, $variant, $players, 'simulated', $date_from, $date_to)
      AND agent IS NOT NULL
    GROUP BY agent
),
summary AS (
    SELECT agent, seats, win / seats AS mean_win_share,
           half_width(seats, win, win_sq) AS win_share_half_width,
           partial / seats AS partial_win,
           half_width(seats, partial, partial_sq) AS partial_win_half_width
    FROM sums
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
