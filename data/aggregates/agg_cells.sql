-- What filled each cell, when in the epoch, and by whom (occupancy and fill timing heatmaps; a
-- piece's kind as the engine names it, `pieces`), with the sums an interval that treats the
-- game as the unit needs: over the games, each game's count n_g of the pieces placed on the
-- cell and the sum S_g of their fill times (0 on the epoch's first turn, 1 on its last), for
-- every seat, epoch and piece kind or one of them (`all_seats`, `all_epochs`, `all_kinds`: the
-- rolled-up key is NULL), as agg_castles.
-- `game_n_epochs` is Σ n_g E_g, E_g the game's epochs (an occupancy's interval needs it).
WITH epoch_turns AS (SELECT game_id, epoch, max(turn) AS turns FROM moves GROUP BY ALL),
game_epochs AS (SELECT game_id, count(DISTINCT epoch) AS epochs FROM epoch_scores GROUP BY ALL),
placed AS (
    SELECT g.edition, g.variant, g.players, gl.level, g.created, g.rules, s.agent, s.player, m.epoch,
           p.piece_kind,
           m.cell, m.game_id, (m.turn - 1) / greatest(e.turns - 1, 1) AS fill,
           coalesce(ge.epochs, 0) AS epochs
    FROM moves m JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
    JOIN seats s USING (game_id, seat) JOIN epoch_turns e USING (game_id, epoch)
    JOIN pieces p USING (piece) LEFT JOIN game_epochs ge USING (game_id)
    WHERE m.kind <> 'pass'
),
per_game AS (
    SELECT edition, variant, players, level, created, rules,
           grouping(agent) = 1 AS all_seats, grouping(epoch) = 1 AS all_epochs,
           grouping(piece_kind) = 1 AS all_kinds, agent, player, epoch, piece_kind, cell,
           count(*) AS n, sum(fill) AS fill, sum(epochs) AS n_epochs
    FROM placed
    GROUP BY edition, variant, players, level, created, rules, cell, game_id,
             CUBE ((agent, player), epoch, piece_kind)
)
SELECT edition, variant, players, level, created, rules, all_seats, all_epochs, all_kinds,
       agent, player, epoch, piece_kind, cell,
       CAST(sum(n) AS BIGINT) AS n, count(*) AS games, CAST(sum(n * n) AS BIGINT) AS game_n_sq,
       sum(fill) AS sum_fill, sum(fill ^ 2) AS game_fill_sq, sum(fill * n) AS game_fill_n,
       CAST(sum(n_epochs) AS BIGINT) AS game_n_epochs
FROM per_game
GROUP BY ALL
