-- Headline balance per player count, one observation per game: balance = 1 − max |W_a − W_b|
-- over pairs of positions in epoch 1's turn order (its interval is that of the widest gap,
-- taken per game: the seats of one game are not independent), mean winning margin, share of
-- games won by less than 5 gold, mean plies, with 95% intervals (means ± z·SE, the share a
-- Wilson interval). `decision_share`: decision moves, the share of turns with more than one
-- legal action, with the half width of that ratio taken per game (its turns are not independent).
-- Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to.
WITH gaps AS (
    SELECT players, first_position, second_position, sum(n) AS n,
           sum(sum_gap) AS total, sum(sumsq_gap) AS total_sq
    FROM agg_position_gaps WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    GROUP BY ALL
),
widest AS (
    SELECT players, abs(total / n) AS gap, half_width(n, total, total_sq) AS half_width
    FROM gaps
    QUALIFY row_number() OVER (PARTITION BY players
                               ORDER BY abs(total / n) DESC, half_width DESC) = 1
),
sums AS (
    SELECT players, sum(n) AS n, sum(sum_victory_margin) AS margin,
           sum(sumsq_victory_margin) AS margin_sq, sum(close_games) AS close_games,
           sum(sum_plies) AS plies, sum(sumsq_plies) AS plies_sq,
           sum(sum_decisions) AS decisions, sum(sumsq_decisions) AS decisions_sq,
           sum(sum_decisions_plies) AS decisions_plies
    FROM agg_games WHERE kept(edition, variant, players, level, source, created,
         $edition, $variant, $players, $level, $source, $date_from, $date_to)
    GROUP BY ALL
)
SELECT s.players, CAST(s.n AS BIGINT) AS games,
       1 - w.gap AS balance, 1 - w.gap - w.half_width AS balance_low,
       least(1, 1 - w.gap + w.half_width) AS balance_high,
       s.margin / s.n AS mean_victory_margin,
       half_width(s.n, s.margin, s.margin_sq) AS victory_margin_half_width,
       s.close_games / s.n AS close_game_share,
       wilson(s.close_games, s.n, -1) AS close_game_low,
       wilson(s.close_games, s.n, 1) AS close_game_high,
       s.plies / s.n AS mean_plies, half_width(s.n, s.plies, s.plies_sq) AS plies_half_width,
       s.decisions / s.plies AS decision_share,
       ratio_half_width(s.n, s.decisions, s.plies, s.decisions_sq, s.decisions_plies, s.plies_sq)
           AS decision_half_width
FROM sums s JOIN widest w USING (players)
ORDER BY s.players
