-- Leader after epoch k goes on to win, per player count and epoch k (1, 2): of the games with
-- one seat alone in the lead (most gold after epoch k), `leader_won` is how many that seat went
-- on to win (alone or tied), `share` its share with a 95% Wilson interval over those games.
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to.
WITH standings AS (
    SELECT e.game_id, g.players, e.epoch, e.seat, e.gold_after,
           max(e.gold_after) OVER (PARTITION BY e.game_id, e.epoch) AS best
    FROM epoch_scores e
    JOIN filtered_games($edition, $variant, $players, $source, $date_from, $date_to) g
        USING (game_id)
    WHERE e.epoch < 3
),
leaders AS (
    SELECT game_id, players, epoch, any_value(seat) AS seat
    FROM standings WHERE gold_after = best
    GROUP BY ALL HAVING count(*) = 1
)
SELECT l.players, l.epoch, count(*) AS games,
       count(*) FILTER (WHERE s.win_share > 0) AS leader_won,
       count(*) FILTER (WHERE s.win_share > 0) / count(*) AS share,
       wilson(count(*) FILTER (WHERE s.win_share > 0), count(*), -1) AS ci_low,
       wilson(count(*) FILTER (WHERE s.win_share > 0), count(*), 1) AS ci_high
FROM leaders l JOIN seats s USING (game_id, seat)
GROUP BY ALL
ORDER BY l.players, l.epoch
