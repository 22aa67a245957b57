-- The games' outcomes by player count, for balance and its bootstrap over games (data/balance.py):
-- each distinct list of win shares by position in epoch 1's turn order (1 = first mover) and how
-- many games ended so. Filters (NULL = all): $edition $variant $players $level $source
-- $date_from $date_to.
WITH kept_games AS (
    SELECT game_id, g.players
    FROM games g JOIN game_levels gl USING (game_id)
    WHERE kept(g.edition, g.variant, g.players, gl.level, g.source, g.created, g.rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
), outcomes AS (
    SELECT k.players, list(s.win_share ORDER BY s.turn_position) AS win_shares
    FROM seats s JOIN kept_games k USING (game_id)
    GROUP BY s.game_id, k.players
)
SELECT players, win_shares, count(*) AS games
FROM outcomes
GROUP BY ALL
ORDER BY players, games DESC
