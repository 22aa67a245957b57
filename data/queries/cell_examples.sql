-- Example games for one cell: pieces placed on $cell in the games that match, newest first,
-- each with the ply of its placement (the replay opens there), a castle's gold in its epoch and
-- the placer's result, at most $limit (default 20). Every matching game is searched: the
-- aggregates the heatmaps count say which batches hold matching placements on the cell, and the
-- newest of them until they hold $limit are read. $piece_kind picks the pieces a heatmap
-- counts: 'castle' (the default), 'tile' (any tile), a piece kind of the `pieces` view
-- ('resource', 'hazard' or a special tile's token), or 'any'. Filters (NULL = all): $edition $variant $players $level $source $date_from
-- $date_to $agent $player $epoch $rank ($agent/$player: the placer; $rank: castles of that rank).
WITH counted AS (
    SELECT batch_id, n FROM agg_castles
    WHERE coalesce($piece_kind, 'castle') IN ('castle', 'any')
      AND kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND cell_scope = 'cell' AND NOT all_seats AND NOT all_epochs AND NOT all_ranks
      AND cell = $cell
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND ($epoch IS NULL OR epoch = $epoch) AND ($rank IS NULL OR rank = $rank)
    UNION ALL
    SELECT batch_id, n FROM agg_cells
    WHERE coalesce($piece_kind, 'castle') <> 'castle' AND piece_kind <> 'castle'
      AND NOT all_seats AND NOT all_epochs AND NOT all_kinds
      AND (coalesce($piece_kind, 'castle') IN ('any', 'tile') OR piece_kind = $piece_kind)
      AND kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND cell = $cell
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
      AND ($epoch IS NULL OR epoch = $epoch)
),
newest AS (  -- the newest batches with matching placements, until they hold $limit of them
    SELECT batch_id FROM (SELECT batch_id, sum(n) AS placed FROM counted GROUP BY batch_id)
    QUALIFY coalesce(sum(placed) OVER (ORDER BY batch_id DESC
                                       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
            < coalesce($limit, 20)
),
games_in AS (
    SELECT game_id, source, players, created
    FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to, $rules)
    WHERE batch_id IN (SELECT batch_id FROM newest)
      AND ($level IS NULL OR game_id IN (
          SELECT game_id FROM batch_levels((SELECT list(batch_id) FROM newest))
          WHERE level = $level))
),
seats_in AS (
    SELECT game_id, seat, player, final_gold, win_share FROM _seats
    WHERE batch_id IN (SELECT batch_id FROM newest)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
),
placed AS (
    SELECT game_id, epoch, ply, seat, piece, castle_rank AS rank,
           CAST(row_gold + column_gold AS SMALLINT) AS castle_gold, p.piece_kind
    FROM _moves JOIN pieces p USING (piece)
    WHERE batch_id IN (SELECT batch_id FROM newest)
      AND cell = $cell AND kind <> 'pass' AND ($epoch IS NULL OR epoch = $epoch)
),
wanted AS (
    SELECT * FROM placed
    WHERE CASE coalesce($piece_kind, 'castle')
              WHEN 'any' THEN true
              WHEN 'tile' THEN piece_kind <> 'castle'
              ELSE piece_kind = coalesce($piece_kind, 'castle') END
      AND ($rank IS NULL OR rank = $rank)
)
SELECT w.game_id, g.source, g.players, w.epoch, w.ply, w.seat, s.player, w.piece, w.rank,
       w.castle_gold, s.final_gold, s.win_share, g.created
FROM wanted w
JOIN games_in g USING (game_id)
JOIN seats_in s USING (game_id, seat)
ORDER BY g.created DESC, w.game_id, w.ply
LIMIT coalesce($limit, 20)
