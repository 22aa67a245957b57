-- Example games for one cell: games where a castle stood on $cell (with its yield), newest
-- first, at most $limit (default 20). Filters (NULL = all): $edition $variant $players $source
-- $date_from $date_to $agent $player $epoch.
WITH seats_in AS (
    SELECT game_id, seat FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
)
SELECT c.game_id, g.source, g.players, c.epoch, c.seat, s.player, c.rank,
       c.gold AS castle_gold, s.final_gold, s.win_share, g.created
FROM castles c
JOIN seats_in USING (game_id, seat)
JOIN games g USING (game_id)
JOIN seats s USING (game_id, seat)
WHERE c.cell = $cell AND ($epoch IS NULL OR c.epoch = $epoch)
ORDER BY g.created DESC, c.game_id
LIMIT coalesce($limit, 20)
