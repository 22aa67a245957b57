-- Agents against the field, from simulated games: per agent, seats played, mean win_share and
-- mean partial win w = (utility + 1)/2 with 95% half-widths, against whatever field each met
-- (not a strength: data/ratings.py rates players). Filters (NULL = all): $edition $variant
-- $players $date_from $date_to.
WITH sums AS (
    SELECT agent, CAST(sum(n) AS BIGINT) AS seats, sum(sum_win) AS win, sum(sumsq_win) AS win_sq,
           sum(sum_partial) AS partial, sum(sumsq_partial) AS partial_sq
    FROM agg_seats
    WHERE kept(edition, variant, players, level, source, created,
               $edition, $variant, $players, NULL, 'simulated', $date_from, $date_to)
      AND agent IS NOT NULL
    GROUP BY agent
)
SELECT agent, seats, win / seats AS mean_win_share,
       half_width(seats, win, win_sq) AS win_share_half_width,
       partial / seats AS partial_win,
       half_width(seats, partial, partial_sq) AS partial_win_half_width
FROM sums
ORDER BY partial_win DESC, agent
