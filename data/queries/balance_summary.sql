-- Headline balance per player count: games, balance = 1 − max |W_a − W_b| over positions in
-- epoch 1's turn order, mean winning margin, share of games won by less than 5 gold, mean
-- plies, decision moves (share of turns with more than one legal action). Filters (NULL = all):
-- $edition $variant $players $source $date_from $date_to.
WITH positions AS (
    SELECT players, turn_position, sum(sum_win) / CAST(sum(n) AS BIGINT) AS w
    FROM agg_seats WHERE kept(edition, variant, players, source, created,
         $edition, $variant, $players, $source, $date_from, $date_to)
    GROUP BY ALL
),
balance AS (SELECT players, 1 - (max(w) - min(w)) AS balance FROM positions GROUP BY ALL),
games AS (
    SELECT players, CAST(sum(n) AS BIGINT) AS games, sum(sum_victory_margin) AS margin,
           CAST(sum(close_games) AS BIGINT) AS close_games, CAST(sum(sum_plies) AS BIGINT) AS plies,
           sum(sum_decisions) AS decisions
    FROM agg_games WHERE kept(edition, variant, players, source, created,
         $edition, $variant, $players, $source, $date_from, $date_to)
    GROUP BY ALL
)
SELECT g.players, g.games, b.balance, g.margin / g.games AS mean_victory_margin,
       g.close_games / g.games AS close_game_share, g.plies / g.games AS mean_plies,
       g.decisions / g.plies AS decision_share
FROM games g JOIN balance b USING (players)
ORDER BY g.players
