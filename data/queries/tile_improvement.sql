-- "Improvement when placed" per tile kind: mean win_share of seats that placed the kind at
-- least once in the game against seats that never did; `improvement` is the difference, with
-- its 95% interval (√(SE₁² + SE₂²)). Filters (NULL = all): $edition $variant $players $source
-- $date_from $date_to $agent $player.
WITH seats_in AS (
    SELECT game_id, seat, win_share FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
),
kinds AS (SELECT DISTINCT tile FROM tile_impacts),
placed AS (
    SELECT DISTINCT game_id, placer AS seat, tile FROM tile_impacts WHERE seat = placer
),
marked AS (
    SELECT k.tile, s.win_share, p.tile IS NOT NULL AS placed
    FROM seats_in s CROSS JOIN kinds k
    LEFT JOIN placed p ON p.game_id = s.game_id AND p.seat = s.seat AND p.tile = k.tile
),
summary AS (
    SELECT tile,
           count(*) FILTER (WHERE placed) AS seats_placed,
           avg(win_share) FILTER (WHERE placed) AS win_share_placed,
           var_samp(win_share) FILTER (WHERE placed) / count(*) FILTER (WHERE placed) AS var_placed,
           count(*) FILTER (WHERE NOT placed) AS seats_not_placed,
           avg(win_share) FILTER (WHERE NOT placed) AS win_share_not_placed,
           var_samp(win_share) FILTER (WHERE NOT placed)
               / count(*) FILTER (WHERE NOT placed) AS var_not_placed
    FROM marked GROUP BY tile
)
SELECT tile, seats_placed, win_share_placed, seats_not_placed, win_share_not_placed,
       win_share_placed - win_share_not_placed AS improvement,
       win_share_placed - win_share_not_placed - 1.96 * sqrt(var_placed + var_not_placed) AS ci_low,
       win_share_placed - win_share_not_placed + 1.96 * sqrt(var_placed + var_not_placed) AS ci_high
FROM summary
ORDER BY improvement DESC NULLS LAST
