-- The most recent batches of the lake: when, where from, how many games, which rules and agents.
-- $limit: how many batches (default 10).
SELECT g.batch_id AS batch_id, g.source AS source, min(g.created) AS created,
       count(DISTINCT g.game_id) AS games,
       string_agg(DISTINCT g.edition, ', ' ORDER BY g.edition) AS editions,
       string_agg(DISTINCT CAST(g.players AS VARCHAR), ', ' ORDER BY CAST(g.players AS VARCHAR))
           AS player_counts,
       string_agg(DISTINCT coalesce(s.agent, 'person'), ', ' ORDER BY coalesce(s.agent, 'person'))
           AS agents
FROM games g
JOIN seats s USING (game_id)
GROUP BY g.batch_id, g.source
ORDER BY g.batch_id DESC
LIMIT coalesce($limit, 10)
