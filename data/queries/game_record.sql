-- One game with what its record needs: rules, tags, who sat where, and `actions`, the engine's
-- whole action list, rebuilt from the stored turns and starting tiles (replay it to step
-- through the game). $game_id: the game's id.
WITH game AS (
    SELECT game_id, source, edition, variant, players, seed, first_seat, tags,
           CAST(deals AS INTEGER[]) AS deals
    FROM games WHERE game_id = $game_id
),
turns AS (
    SELECT m.epoch, m.ply,
           CASE WHEN m.kind <> 'draw' THEN [m.action]
                WHEN g.variant LIKE '%no-luck%' THEN [182 + m.tile_code, m.action]
                ELSE [180, m.tile_code, m.action] END AS actions
    FROM (
        SELECT epoch, ply, kind, CAST(action AS INTEGER) AS action,
               list_position(['+1', '+2', '+3', '+4', '+5', '+6', '-1', '-2', '-3', '-4',
                              '-5', '-6', 'MT', 'DR', 'GM', 'WZ'], piece) AS tile_code
        FROM moves WHERE game_id = $game_id
    ) m CROSS JOIN game g
),
epochs AS (
    SELECT e.epoch,
           g.deals[(e.epoch - 1) * g.players + 1 : e.epoch * g.players]
           || CASE WHEN e.epoch = 1 THEN [ascii(g.first_seat) - 65] ELSE [] END
           || coalesce(flatten(list(t.actions ORDER BY t.ply)
                               FILTER (WHERE t.actions IS NOT NULL)), []) AS actions
    FROM (SELECT DISTINCT epoch FROM epoch_scores WHERE game_id = $game_id) e
    CROSS JOIN game g
    LEFT JOIN turns t USING (epoch)
    GROUP BY e.epoch, g.deals, g.players, g.first_seat
),
seated AS (
    SELECT list(seat ORDER BY seat) AS seats, list(player ORDER BY seat) AS seat_players,
           list(agent ORDER BY seat) AS seat_agents
    FROM seats WHERE game_id = $game_id
)
SELECT g.game_id, g.source, g.edition, g.variant, g.players, g.seed, g.first_seat, g.tags,
       (SELECT flatten(list(actions ORDER BY epoch)) FROM epochs) AS actions,
       s.seats, s.seat_players, s.seat_agents
FROM game g CROSS JOIN seated s
