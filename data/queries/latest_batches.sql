-- The latest batches: id, source, games, moves, when. $limit (default 10).
SELECT batch_id, source, CAST(sum(n) AS BIGINT) AS games, CAST(sum(sum_plies) AS BIGINT) AS moves, min(created) AS created
FROM agg_games
GROUP BY ALL
ORDER BY batch_id DESC
LIMIT coalesce($limit, 10)
