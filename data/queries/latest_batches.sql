-- The latest batches: id, source, games, moves, when. $limit (default 10).
SELECT batch_id, source, sum(n) AS games, sum(sum_plies) AS moves, min(created) AS created
FROM agg_games
GROUP BY ALL
ORDER BY batch_id DESC
LIMIT coalesce($limit, 10)
