-- Castle yields per cell, with the sums an interval that treats the game as the unit needs:
-- over the games, each game's count of castles n_g and sums S_g (castles of one game share its
-- board and players). Rows for a cell (`cell_scope` 'cell'), a cell with its mirror images
-- ('mirror', `cell` naming the class), and the whole board ('board', `cell` NULL), each for
-- every seat, epoch and rank or one of them (`all_seats`, `all_epochs`, `all_ranks`: the
-- rolled-up key is NULL), so that any filter picks rows whose games are summed whole.
WITH placed AS (
    SELECT g.edition, g.variant, g.players, gl.level, g.created, g.rules, s.agent, s.player, c.epoch,
           c.rank, c.cell, cl.mirror_cell, c.game_id,
           CAST(c.row_gold + c.column_gold AS DOUBLE) AS gold,
           (c.row_gold + c.column_gold) / c.effective_rank AS unit,
           s.win_share AS win
    FROM castles c JOIN games g USING (game_id) JOIN game_levels gl USING (game_id)
    JOIN seats s USING (game_id, seat)
    JOIN rule_set_cells cl ON cl.rules = g.rules AND cl.cell = c.cell
),
scoped AS (
    SELECT * EXCLUDE (mirror_cell), 'cell' AS cell_scope FROM placed
    UNION ALL BY NAME
    SELECT * EXCLUDE (cell, mirror_cell), mirror_cell AS cell, 'mirror' AS cell_scope FROM placed
    UNION ALL BY NAME
    SELECT * EXCLUDE (cell, mirror_cell), NULL AS cell, 'board' AS cell_scope FROM placed
),
per_game AS (
    SELECT edition, variant, players, level, created, rules, cell_scope,
           grouping(agent) = 1 AS all_seats, grouping(epoch) = 1 AS all_epochs,
           grouping(rank) = 1 AS all_ranks, agent, player, epoch, rank, cell,
           count(*) AS n, sum(gold) AS gold, sum(unit) AS unit, sum(win) AS win
    FROM scoped
    GROUP BY edition, variant, players, level, created, rules, cell_scope, cell, game_id,
             CUBE ((agent, player), epoch, rank)
)
SELECT edition, variant, players, level, created, rules, cell_scope, all_seats, all_epochs, all_ranks,
       agent, player, epoch, rank, cell,
       CAST(sum(n) AS BIGINT) AS n, count(*) AS games, CAST(sum(n * n) AS BIGINT) AS game_n_sq,
       sum(gold) AS sum_gold, sum(gold ^ 2) AS game_gold_sq, sum(gold * n) AS game_gold_n,
       sum(unit) AS sum_unit, sum(unit ^ 2) AS game_unit_sq, sum(unit * n) AS game_unit_n,
       sum(win) AS sum_win, sum(win ^ 2) AS game_win_sq, sum(win * n) AS game_win_n
FROM per_game
GROUP BY ALL
