-- The whole-game figures per player count, one observation per game (the balance itself comes
-- from `balance_outcomes`, data/balance.py): mean winning margin, share of games won by less
-- than 5 gold, mean plies, with 95% intervals (means ± z·SE, the share a Wilson interval).
-- `decision_share`: decision moves, the share of turns with more than one legal action; its
-- interval is a Wilson interval over the effective number of turns, p(1 − p) over the squared
-- standard error of the ratio taken per game (a game's turns are not independent), at most the
-- turns themselves, so that it stays within [0, 1].
-- Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to.
WITH sums AS (
    SELECT players, sum(n) AS n, sum(sum_victory_margin) AS margin,
           sum(sumsq_victory_margin) AS margin_sq, sum(close_games) AS close_games,
           sum(sum_plies) AS plies, sum(sumsq_plies) AS plies_sq,
           sum(sum_decisions) AS decisions, sum(sumsq_decisions) AS decisions_sq,
           sum(sum_decisions_plies) AS decisions_plies
    FROM agg_games WHERE kept(edition, variant, players, level, source, created, rules,
         $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    GROUP BY ALL
),
decisions AS (
    SELECT *, decisions / plies AS share,
           ratio_half_width(n, decisions, plies, decisions_sq, decisions_plies, plies_sq) / z95()
               AS share_error
    FROM sums
),
effective AS (
    SELECT *, CASE WHEN share_error > 0
                   THEN least(plies, share * (1 - share) / share_error ^ 2)
                   ELSE plies END AS turns
    FROM decisions
)
SELECT players, CAST(n AS BIGINT) AS games,
       margin / n AS mean_victory_margin,
       half_width(n, margin, margin_sq) AS victory_margin_half_width,
       close_games / n AS close_game_share,
       wilson(close_games, n, -1) AS close_game_low,
       wilson(close_games, n, 1) AS close_game_high,
       plies / n AS mean_plies, half_width(n, plies, plies_sq) AS plies_half_width,
       share AS decision_share,
       wilson(share * turns, turns, -1) AS decision_low,
       wilson(share * turns, turns, 1) AS decision_high
FROM effective
ORDER BY players
