-- One game with what its record needs: rules, tags, who sat where, and `actions`, the engine's
-- whole action list, rebuilt from the stored turns and starting tiles (replay it to step
-- through the game). $game_id: the game's id ($game_batch, the batch holding it, is filled in by
-- `execute`, so only that batch's files are read).
WITH game AS MATERIALIZED (
    SELECT game_id, source, edition, variant, players, seed, first_seat, tags,
           CAST(deals AS INTEGER[]) AS deals
    FROM games WHERE game_id = $game_id AND batch_id = $game_batch
),
turns AS MATERIALIZED (
    SELECT epoch, ply, kind, CAST(action AS INTEGER) AS action,
           list_position(['+1', '+2', '+3', '+4', '+5', '+6', '-1', '-2', '-3', '-4',
                          '-5', '-6', 'MT', 'DR', 'GM', 'WZ'], piece) AS tile_code
    FROM moves WHERE game_id = $game_id AND batch_id = $game_batch
),
steps AS (
    -- every action with its place: (epoch, ply, step); deals and the first seat come first
    SELECT (i - 1) // players + 1 AS epoch, -1 AS ply, i AS step, deals[i] AS action
    FROM game, range(1, len(deals) + 1) r(i)
    UNION ALL
    SELECT 1, 0, 0, ascii(first_seat) - 65 FROM game
    UNION ALL
    SELECT t.epoch, t.ply, s.step, s.action
    FROM turns t, game g,
         LATERAL (SELECT unnest(range(1, 4)) AS step,
                         unnest(CASE WHEN t.kind <> 'draw' THEN [t.action]
                                     WHEN g.variant LIKE '%no-luck%'
                                         THEN [182 + t.tile_code, t.action]
                                     ELSE [180, t.tile_code, t.action] END) AS action) s
    WHERE s.action IS NOT NULL
),
seated AS (
    SELECT list(seat ORDER BY seat) AS seats, list(player ORDER BY seat) AS seat_players,
           list(agent ORDER BY seat) AS seat_agents
    FROM seats WHERE game_id = $game_id AND batch_id = $game_batch
)
SELECT g.game_id, g.source, g.edition, g.variant, g.players, g.seed, g.first_seat, g.tags,
       (SELECT list(action ORDER BY epoch, ply, step) FROM steps) AS actions,
       s.seats, s.seat_players, s.seat_agents
FROM game g CROSS JOIN seated s
