-- Head to head: for every ordered pair of agents, in the games where both sat, the share of
-- their seat pairs in which `agent` finished with more gold than `opponent` (a tie counts a
-- half). One observation per game (the mean over the game's pairs), so `score` has a 95% Wilson
-- interval over `games`. Only the batches whose line-ups mix agents are read.
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to.
WITH mixed AS (
    SELECT DISTINCT batch_id FROM agg_games
    WHERE kept(edition, variant, players, source, created,
               $edition, $variant, $players, $source, $date_from, $date_to)
      AND agents LIKE '%, %'
),
seated AS (
    SELECT s.game_id, s.agent, s.final_gold
    FROM _seats s
    JOIN filtered_games($edition, $variant, $players, $source, $date_from, $date_to) g
        USING (game_id)
    WHERE s.batch_id IN (SELECT batch_id FROM mixed) AND g.batch_id IN (SELECT batch_id FROM mixed)
      AND s.agent IS NOT NULL
),
per_game AS (
    SELECT a.game_id, a.agent, b.agent AS opponent,
           avg(CASE WHEN a.final_gold > b.final_gold THEN 1.0
                    WHEN a.final_gold = b.final_gold THEN 0.5 ELSE 0.0 END) AS score
    FROM seated a JOIN seated b ON a.game_id = b.game_id AND a.agent <> b.agent
    GROUP BY ALL
)
SELECT agent, opponent, count(*) AS games, sum(score) / count(*) AS score,
       wilson(sum(score), count(*), -1) AS ci_low, wilson(sum(score), count(*), 1) AS ci_high
FROM per_game
GROUP BY ALL
ORDER BY agent, opponent
