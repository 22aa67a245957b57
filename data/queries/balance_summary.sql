-- Headline balance per player count, one observation per game: balance = 1 − max |W_a − W_b|
-- over pairs of positions in epoch 1's turn order (its interval is that of the widest gap,
-- taken per game: the seats of one game are not independent), mean winning margin, share of
-- games won by less than 5 gold, mean plies, decision moves (share of turns with more than one
-- legal action, its interval that of a ratio of per-game counts). Means ± 1.96·SE, shares with
-- Wilson intervals. Filters (NULL = all): $edition $variant $players $source $date_from $date_to.
WITH games_in AS (
    SELECT game_id, players, plies
    FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to)
),
seats_in AS (
    SELECT s.game_id, g.players, s.turn_position, s.win_share, s.margin
    FROM seats s JOIN games_in g USING (game_id)
),
gaps AS (
    SELECT a.players, avg(a.win_share - b.win_share) AS gap,
           1.96 * stddev_samp(a.win_share - b.win_share) / sqrt(count(*)) AS half_width
    FROM seats_in a JOIN seats_in b
        ON a.game_id = b.game_id AND a.turn_position < b.turn_position
    GROUP BY a.players, a.turn_position, b.turn_position
),
widest AS (
    SELECT players, abs(gap) AS gap, half_width FROM gaps
    QUALIFY row_number() OVER (PARTITION BY players ORDER BY abs(gap) DESC, half_width DESC) = 1
),
turns AS (
    SELECT game_id, count(*) AS turns, count(*) FILTER (WHERE legal_actions > 1) AS decisions
    FROM moves WHERE game_id IN (SELECT game_id FROM games_in)
    GROUP BY game_id
),
per_game AS (
    SELECT g.game_id, g.players, g.plies, max(s.margin) AS victory_margin,
           any_value(t.turns) AS turns, any_value(t.decisions) AS decisions
    FROM games_in g JOIN seats_in s USING (game_id) JOIN turns t USING (game_id)
    GROUP BY ALL
),
sums AS (
    SELECT players, count(*) AS games,
           avg(victory_margin) AS mean_victory_margin,
           1.96 * stddev_samp(victory_margin) / sqrt(count(*)) AS victory_margin_half_width,
           count(*) FILTER (WHERE victory_margin < 5) AS close_games,
           avg(plies) AS mean_plies, 1.96 * stddev_samp(plies) / sqrt(count(*)) AS plies_half_width,
           sum(decisions) / sum(turns) AS decision_share,
           sum(decisions ^ 2) AS dd, sum(decisions * turns) AS dt, sum(turns ^ 2) AS tt,
           avg(turns) AS mean_turns
    FROM per_game GROUP BY players
)
SELECT s.players, s.games,
       1 - w.gap AS balance, 1 - w.gap - w.half_width AS balance_low,
       least(1, 1 - w.gap + w.half_width) AS balance_high,
       s.mean_victory_margin, s.victory_margin_half_width,
       s.close_games / s.games AS close_game_share,
       wilson(s.close_games, s.games, -1) AS close_game_low,
       wilson(s.close_games, s.games, 1) AS close_game_high,
       s.mean_plies, s.plies_half_width, s.decision_share,
       1.96 * sqrt(greatest(s.dd - 2 * s.decision_share * s.dt + s.decision_share ^ 2 * s.tt, 0)
                   / nullif(s.games * (s.games - 1), 0)) / s.mean_turns AS decision_half_width
FROM sums s JOIN widest w USING (players)
ORDER BY s.players
