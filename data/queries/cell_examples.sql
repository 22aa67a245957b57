-- Example games for one cell: castles placed on $cell in the newest three batches holding
-- matching games (with the castle's gold and its owner's result), at most $limit (default 20).
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to $agent $player
-- $epoch $rank ($agent/$player: the castle's owner).
WITH newest AS (
    SELECT DISTINCT batch_id FROM agg_seats
    WHERE kept(edition, variant, players, source, created,
               $edition, $variant, $players, $source, $date_from, $date_to)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
    ORDER BY batch_id DESC
    LIMIT 3
),
games_in AS (
    SELECT game_id, source, players, created
    FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to)
    WHERE batch_id IN (SELECT batch_id FROM newest)
),
seats_in AS (
    SELECT game_id, seat, player, final_gold, win_share FROM _seats
    WHERE batch_id IN (SELECT batch_id FROM newest)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
)
SELECT c.game_id, g.source, g.players, c.epoch, c.seat, s.player, c.rank,
       c.gold AS castle_gold, s.final_gold, s.win_share, g.created
FROM _castles c
JOIN games_in g USING (game_id)
JOIN seats_in s USING (game_id, seat)
WHERE c.batch_id IN (SELECT batch_id FROM newest)
  AND c.cell = $cell AND ($epoch IS NULL OR c.epoch = $epoch)
  AND ($rank IS NULL OR c.rank = $rank)
ORDER BY g.created DESC, c.game_id, c.epoch
LIMIT coalesce($limit, 20)
