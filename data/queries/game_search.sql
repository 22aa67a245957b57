-- Games matching the filters, newest first: id, source, rules, players, who played, result.
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to $agent $player
-- ($agent/$player: some seat of the game); $limit (default 50), $offset (default 0).
WITH hits AS (
    SELECT DISTINCT game_id FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
)
SELECT g.game_id, g.source, g.edition, g.variant, g.players, g.plies, g.created, g.batch_id,
       string_agg(s.seat || ' ' || s.player, ', ' ORDER BY s.seat) AS seated,
       string_agg(s.seat || ' ' || s.final_gold, ', ' ORDER BY s.seat) AS result,
       string_agg(s.seat, ',' ORDER BY s.seat) FILTER (WHERE s.win_share > 0) AS winners
FROM games g JOIN hits USING (game_id) JOIN seats s USING (game_id)
GROUP BY ALL
ORDER BY g.created DESC, g.game_id
LIMIT coalesce($limit, 50) OFFSET coalesce($offset, 0)
