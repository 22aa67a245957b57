-- Headline balance per player count: games, balance = 1 − max |W_a − W_b| over positions in
-- epoch 1's turn order, mean winning margin, share of games won by less than 5 gold, mean
-- plies. Filters (NULL = all): $edition $variant $players $source $date_from $date_to.
WITH games_in AS (
    SELECT * FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to)
),
positions AS (
    SELECT g.players, s.turn_position, avg(s.win_share) AS w
    FROM seats s JOIN games_in g USING (game_id) GROUP BY ALL
),
balance AS (
    SELECT players, 1 - (max(w) - min(w)) AS balance FROM positions GROUP BY players
),
victories AS (
    SELECT g.players, g.game_id, g.plies, max(s.margin) AS victory_margin
    FROM games_in g JOIN seats s USING (game_id) GROUP BY ALL
)
SELECT v.players, count(*) AS games, any_value(b.balance) AS balance,
       avg(v.victory_margin) AS mean_victory_margin,
       avg(CASE WHEN v.victory_margin < 5 THEN 1.0 ELSE 0.0 END) AS close_game_share,
       avg(v.plies) AS mean_plies
FROM victories v JOIN balance b USING (players)
GROUP BY v.players
ORDER BY v.players
