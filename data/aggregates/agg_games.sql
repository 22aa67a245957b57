-- Games by rules, line-up of agents, lead changes and comebacks, with their lengths and their
-- decision moves, turns with more than one legal action (with the per-game sums their ratio's
-- interval needs), their winning margins, and the games
-- with one seat alone in the lead after epoch 1 or 2 and how many that seat went on to win
-- (most gold after epoch 3, alone or tied) (lake summary, lead changes, comebacks, duration,
-- leader wins, balance headline).
WITH standing AS (
    SELECT e.game_id, e.epoch, e.seat,
           e.gold_after = max(e.gold_after) OVER w AS leads,
           e.gold_after = min(e.gold_after) OVER w AS last
    FROM epoch_scores e
    WINDOW w AS (PARTITION BY e.game_id, e.epoch)
),
leaders AS (
    SELECT game_id, epoch, list(seat ORDER BY seat) AS leading_seats
    FROM standing WHERE leads GROUP BY ALL
),
changes AS (
    SELECT game_id,
           CAST(sum(CASE WHEN previous IS NOT NULL AND NOT list_has_any(previous, leading_seats)
                         THEN 1 ELSE 0 END) AS TINYINT) AS lead_changes
    FROM (SELECT *, lag(leading_seats) OVER (PARTITION BY game_id ORDER BY epoch) AS previous
          FROM leaders)
    GROUP BY game_id
),
sole_leads AS (
    SELECT l.game_id,
           count(*) FILTER (WHERE l.epoch = 1) AS led_1,
           count(*) FILTER (WHERE l.epoch = 1 AND list_has(w.leading_seats, l.leading_seats[1]))
               AS won_1,
           count(*) FILTER (WHERE l.epoch = 2) AS led_2,
           count(*) FILTER (WHERE l.epoch = 2 AND list_has(w.leading_seats, l.leading_seats[1]))
               AS won_2
    FROM leaders l LEFT JOIN leaders w ON w.game_id = l.game_id AND w.epoch = 3
    WHERE l.epoch IN (1, 2) AND len(l.leading_seats) = 1
    GROUP BY l.game_id
),
outcomes AS (
    SELECT s.game_id,
           string_agg(DISTINCT coalesce(s.agent, 'people'), ', '
                      ORDER BY coalesce(s.agent, 'people')) AS agents,
           max(s.margin) AS victory_margin,
           bool_or(s.win_share > 0 AND st.last) AS comeback
    FROM seats s
    LEFT JOIN standing st ON st.game_id = s.game_id AND st.seat = s.seat AND st.epoch IN (1, 2)
    GROUP BY s.game_id
),
lengths AS (
    SELECT game_id,
           count(*) FILTER (WHERE epoch = 1) AS plies_1,
           count(*) FILTER (WHERE epoch = 2) AS plies_2,
           count(*) FILTER (WHERE epoch = 3) AS plies_3,
           count(*) FILTER (WHERE kind = 'pass') AS passes,
           count(*) FILTER (WHERE legal_actions > 1) AS decisions
    FROM moves GROUP BY game_id
)
SELECT g.edition, g.variant, g.players, gl.level, g.created, g.rules, o.agents, c.lead_changes,
       coalesce(o.comeback, false) AS comeback,
       count(*) AS n, sum(g.plies) AS sum_plies,
       sum(l.plies_1) AS sum_plies_1, sum(l.plies_2) AS sum_plies_2,
       sum(l.plies_3) AS sum_plies_3, sum(l.passes) AS sum_passes,
       sum(l.decisions) AS sum_decisions,
       sum(o.victory_margin) AS sum_victory_margin,
       count(*) FILTER (WHERE o.victory_margin < 5) AS close_games,
       sum(g.plies ^ 2) AS sumsq_plies, sum(o.victory_margin ^ 2) AS sumsq_victory_margin,
       sum(coalesce(sl.led_1, 0)) AS sole_leads_1, sum(coalesce(sl.won_1, 0)) AS leader_won_1,
       sum(coalesce(sl.led_2, 0)) AS sole_leads_2, sum(coalesce(sl.won_2, 0)) AS leader_won_2,
       sum(CAST(l.decisions AS DOUBLE) ^ 2) AS sumsq_decisions,
       sum(CAST(l.decisions AS DOUBLE) * g.plies) AS sum_decisions_plies
FROM games g JOIN game_levels gl USING (game_id) JOIN outcomes o USING (game_id) JOIN changes c USING (game_id)
JOIN lengths l USING (game_id) LEFT JOIN sole_leads sl USING (game_id)
GROUP BY ALL
