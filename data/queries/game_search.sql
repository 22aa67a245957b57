-- Games matching the filters, newest first: id, source, rules, players, who played, result.
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to $agent $player
-- ($agent/$player: some seat of the game); $limit (default 50), $offset (default 0).
WITH page AS (
    SELECT g.game_id, g.created
    FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to) g
    WHERE ($agent IS NULL AND $player IS NULL)
       OR g.game_id IN (SELECT game_id FROM seats
                        WHERE ($agent IS NULL OR agent = $agent)
                          AND ($player IS NULL OR player = $player))
    ORDER BY g.created DESC, g.game_id
    LIMIT coalesce($limit, 50) OFFSET coalesce($offset, 0)
)
SELECT g.game_id, g.source, g.edition, g.variant, g.players, g.plies, g.created, g.batch_id,
       string_agg(s.seat || ' ' || s.player, ', ' ORDER BY s.seat) AS seated,
       string_agg(s.seat || ' ' || s.final_gold, ', ' ORDER BY s.seat) AS result,
       string_agg(s.seat, ',' ORDER BY s.seat) FILTER (WHERE s.win_share > 0) AS winners
FROM page
JOIN (SELECT game_id, source, edition, variant, players, plies, created, batch_id FROM games) g
    USING (game_id, created)
JOIN seats s USING (game_id)
GROUP BY ALL
ORDER BY g.created DESC, g.game_id
