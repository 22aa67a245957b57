-- Duration per player count and epoch: games, mean turns (plies) in the epoch, mean passes.
-- Epoch 0 stands for the whole game. Filters (NULL = all): $edition $variant $players $source
-- $date_from $date_to.
WITH games_in AS (
    SELECT game_id, players FROM filtered_games(
        $edition, $variant, $players, $source, $date_from, $date_to)
),
per_epoch AS (
    SELECT g.players, m.game_id, m.epoch, count(*) AS plies,
           count(*) FILTER (WHERE m.kind = 'pass') AS passes
    FROM moves m JOIN games_in g USING (game_id) GROUP BY ALL
)
SELECT players, epoch, count(*) AS games, avg(plies) AS mean_plies, avg(passes) AS mean_passes
FROM (
    SELECT players, game_id, epoch, plies, passes FROM per_epoch
    UNION ALL
    SELECT players, game_id, 0, sum(plies), sum(passes) FROM per_epoch GROUP BY ALL
)
GROUP BY ALL
ORDER BY players, epoch
