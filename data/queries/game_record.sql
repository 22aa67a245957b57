-- One game with what its record needs: rules (`rule_text`, its rule set's canonical file), tags,
-- who sat where, `actions`, the engine's whole action list (stored two bytes an action; replay
-- it to step through the game), and
-- `unseen_starts`, the positions in its deals of starting tiles nobody saw (written `?`). $game_id: the game's id
-- ($game_source and $game_batch, where it is stored, are filled in by `execute`).
WITH game AS (
    SELECT game_id, source, edition, variant, players, seed, first_seat, tags,
           action_list(actions) AS actions, unseen_starts, rules
    FROM batch_games($game_source, $game_batch) WHERE game_id = $game_id
),
rule_set AS (
    SELECT rules, text FROM batch_rule_sets($game_source, $game_batch)
),
seated AS (
    SELECT list(seat ORDER BY seat) AS seats, list(player ORDER BY seat) AS seat_players,
           list(agent ORDER BY seat) AS seat_agents
    FROM batch_seats($game_source, $game_batch) WHERE game_id = $game_id
)
SELECT g.game_id, g.source, g.edition, g.variant, g.players, g.seed, g.first_seat, g.tags,
       g.actions, g.unseen_starts, s.seats, s.seat_players, s.seat_agents, g.rules,
       r.text AS rule_text
FROM game g JOIN rule_set r USING (rules), seated s
