-- Agents against the field, from simulated games: per agent, seats played, mean win_share and
-- mean partial win w = (utility + 1)/2 with 95% Wilson intervals (both within [0, 1]), against whatever field each met
-- (not a strength: data/ratings.py rates players). Filters (NULL = all): $edition $variant
-- $players $date_from $date_to.
WITH sums AS (
    SELECT agent, CAST(sum(n) AS BIGINT) AS seats, sum(sum_win) AS win,
           sum(sum_partial) AS partial
    FROM agg_seats
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, NULL, 'simulated', $date_from, $date_to, $rules)
      AND agent IS NOT NULL
    GROUP BY agent
)
SELECT agent, seats, win / seats AS mean_win_share,
       wilson(win, seats, -1) AS win_share_low, wilson(win, seats, 1) AS win_share_high,
       partial / seats AS partial_win,
       wilson(partial, seats, -1) AS partial_win_low, wilson(partial, seats, 1) AS partial_win_high
FROM sums
ORDER BY partial_win DESC, agent
