-- What is in the lake, by source, edition, variant, player count and agents seated:
-- games, moves and the time span. No parameters.
WITH lineups AS (
    SELECT game_id, string_agg(DISTINCT coalesce(agent, 'people'), ', ' ORDER BY coalesce(agent, 'people')) AS agents
    FROM seats GROUP BY game_id
)
SELECT g.source, g.edition, g.variant, g.players, l.agents,
       count(*) AS games, sum(g.plies) AS moves,
       min(g.created) AS first_created, max(g.created) AS last_created
FROM games g JOIN lineups l USING (game_id)
GROUP BY ALL
ORDER BY g.source, g.edition, g.variant, g.players, l.agents
