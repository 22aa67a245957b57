-- One game with what its record needs: rules, tags, who sat where, and `actions`, the engine's
-- whole action list, rebuilt from the starting tiles dealt and the stored turns (replay it to
-- step through the game), and `unseen_starts`, the positions in its deals of starting tiles
-- nobody saw (written `?`). $game_id: the game's id ($game_source and $game_batch, where it is
-- stored, are filled in by `execute`: only that batch's files are read).
WITH game AS MATERIALIZED (
    SELECT game_id, source, edition, variant, players, seed, first_seat, tags,
           CAST(deals AS INTEGER[]) AS deals, unseen_starts,
           variant LIKE '%no-luck%' AS no_luck
    FROM batch_games($game_source, $game_batch) WHERE game_id = $game_id
),
turns AS (
    -- the stored codes: kind 0 castle, 1 draw, 2 start, 3 pass; piece is the engine's code
    SELECT epoch, turn, ply, kind, piece, cell
    FROM batch_moves($game_source, $game_batch) WHERE game_id = $game_id
),
actions AS (
    -- an epoch's first turn brings its deals (in epoch 1 then the first seat); a draw is the
    -- draw (in no-luck the chosen tile), the tile seen, and where it went
    SELECT flatten(list(
               CASE WHEN t.turn = 1
                    THEN g.deals[(t.epoch - 1) * g.players + 1 : t.epoch * g.players]
                         || CASE WHEN t.epoch = 1 THEN [ascii(g.first_seat) - 65] ELSE [] END
                    ELSE [] END
               || turn_actions(t.kind, t.piece, t.cell, g.no_luck)
               ORDER BY t.ply)) AS actions
    FROM turns t, game g
),
seated AS (
    SELECT list(seat ORDER BY seat) AS seats, list(player ORDER BY seat) AS seat_players,
           list(agent ORDER BY seat) AS seat_agents
    FROM batch_seats($game_source, $game_batch) WHERE game_id = $game_id
)
SELECT g.game_id, g.source, g.edition, g.variant, g.players, g.seed, g.first_seat, g.tags,
       a.actions, g.unseen_starts, s.seats, s.seat_players, s.seat_agents
FROM game g, actions a, seated s
