-- Example games for one cell: castles placed on $cell in the newest matching games (with the
-- castle's gold and its owner's result), at most $limit (default 20). Filters (NULL = all):
-- $edition $variant $players $source $date_from $date_to $agent $player $epoch $rank.
WITH recent AS (
    SELECT game_id, source, players, created
    FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to)
    ORDER BY created DESC, game_id
    LIMIT 2000
),
found AS (
    SELECT c.game_id, c.epoch, c.seat, c.rank, c.gold AS castle_gold
    FROM castles c SEMI JOIN recent USING (game_id)
    WHERE c.cell = $cell AND ($epoch IS NULL OR c.epoch = $epoch)
      AND ($rank IS NULL OR c.rank = $rank)
)
SELECT f.game_id, r.source, r.players, f.epoch, f.seat, s.player, f.rank, f.castle_gold,
       s.final_gold, s.win_share, r.created
FROM found f JOIN recent r USING (game_id) JOIN seats s USING (game_id, seat)
WHERE ($agent IS NULL OR s.agent = $agent) AND ($player IS NULL OR s.player = $player)
ORDER BY r.created DESC, f.game_id, f.epoch
LIMIT coalesce($limit, 20)
