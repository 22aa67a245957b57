-- Lead changes and comebacks per player count. `lead_changes`: times the leader (most gold
-- after an epoch, the earlier leader kept on a tie) changes across the epochs; `comeback`:
-- the game was won by a seat that was last after epoch 1 or 2. One row per player count and
-- number of lead changes. Filters (NULL = all): $edition $variant $players $source $date_from
-- $date_to.
WITH games_in AS (
    SELECT game_id, players FROM filtered_games(
        $edition, $variant, $players, $source, $date_from, $date_to)
),
standing AS (
    SELECT e.game_id, e.epoch, e.seat, e.gold_after,
           e.gold_after = max(e.gold_after) OVER w AS leads,
           e.gold_after = min(e.gold_after) OVER w AS last
    FROM epoch_scores e JOIN games_in USING (game_id)
    WINDOW w AS (PARTITION BY e.game_id, e.epoch)
),
leaders AS (
    SELECT game_id, epoch, list(seat ORDER BY seat) AS leading_seats
    FROM standing WHERE leads GROUP BY ALL
),
changes AS (
    SELECT game_id,
           sum(CASE WHEN previous IS NOT NULL AND NOT list_has_any(previous, leading_seats)
                    THEN 1 ELSE 0 END) AS lead_changes
    FROM (SELECT *, lag(leading_seats) OVER (PARTITION BY game_id ORDER BY epoch) AS previous
          FROM leaders)
    GROUP BY game_id
),
comebacks AS (
    SELECT w.game_id, bool_or(st.last) AS comeback
    FROM seats w JOIN games_in USING (game_id)
    JOIN standing st ON st.game_id = w.game_id AND st.seat = w.seat AND st.epoch IN (1, 2)
    WHERE w.win_share > 0
    GROUP BY w.game_id
)
SELECT g.players, c.lead_changes, count(*) AS games,
       count(*) / sum(count(*)) OVER (PARTITION BY g.players) AS share,
       avg(CASE WHEN k.comeback THEN 1.0 ELSE 0.0 END) AS comeback_share
FROM games_in g JOIN changes c USING (game_id) JOIN comebacks k USING (game_id)
GROUP BY g.players, c.lead_changes
ORDER BY g.players, c.lead_changes
