-- Leader after epoch k goes on to win, per player count and epoch k (1, 2): of the games with
-- one seat alone in the lead (most gold after epoch k), `leader_won` is how many that seat went
-- on to win (most gold after epoch 3, alone or tied), `share` its share with a 95% Wilson
-- interval over those games. Filters (NULL = all): $edition $variant $players $source
-- $date_from $date_to.
WITH ordered AS (
    -- gold and seat in one key, so that the seat of the most gold is found with ties broken
    -- towards A (`first`) and towards D (`last`): the two agree when one seat leads alone
    SELECT game_id, epoch, seat, gold_after,
           gold_after * 8 + (ascii(seat) - 65) AS last_key,
           gold_after * 8 + (68 - ascii(seat)) AS first_key
    FROM epoch_scores
    WHERE game_id IN (
        SELECT game_id
        FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to)
    )
),
standings AS (
    SELECT game_id,
           arg_max(seat, first_key) FILTER (WHERE epoch = 1) AS first_1,
           arg_max(seat, last_key) FILTER (WHERE epoch = 1) AS last_1,
           arg_max(seat, first_key) FILTER (WHERE epoch = 2) AS first_2,
           arg_max(seat, last_key) FILTER (WHERE epoch = 2) AS last_2,
           max(gold_after) FILTER (WHERE epoch = 3) AS best,
           max(gold_after) FILTER (WHERE epoch = 3 AND seat = 'A') AS gold_a,
           max(gold_after) FILTER (WHERE epoch = 3 AND seat = 'B') AS gold_b,
           max(gold_after) FILTER (WHERE epoch = 3 AND seat = 'C') AS gold_c,
           max(gold_after) FILTER (WHERE epoch = 3 AND seat = 'D') AS gold_d
    FROM ordered
    GROUP BY game_id
),
sole_leaders AS (
    SELECT game_id, 1 AS epoch, first_1 AS leader, * EXCLUDE (game_id)
    FROM standings WHERE first_1 = last_1
    UNION ALL
    SELECT game_id, 2, first_2, * EXCLUDE (game_id) FROM standings WHERE first_2 = last_2
),
counts AS (
    SELECT g.players, l.epoch, count(*) AS games,
           count(*) FILTER (WHERE CASE l.leader WHEN 'A' THEN l.gold_a WHEN 'B' THEN l.gold_b
                                                WHEN 'C' THEN l.gold_c ELSE l.gold_d END = l.best)
               AS leader_won
    FROM sole_leaders l JOIN games g USING (game_id)
    GROUP BY ALL
)
SELECT players, epoch, games, leader_won, leader_won / games AS share,
       wilson(leader_won, games, -1) AS ci_low, wilson(leader_won, games, 1) AS ci_high
FROM counts
ORDER BY players, epoch
