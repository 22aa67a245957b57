-- Distribution of $metric per player count, in bins of $bin_width gold (default 10):
-- 'final_gold' (every seat, the default), 'margin' (every seat) or 'victory_margin' (winner's
-- margin per game). Filters (NULL = all): $edition $variant $players $source $date_from
-- $date_to $agent $player.
WITH seats_in AS (
    SELECT * FROM filtered_seats(
        $edition, $variant, $players, $source, $date_from, $date_to, $agent, $player)
),
values_in AS (
    SELECT game_players AS players,
           CASE coalesce($metric, 'final_gold') WHEN 'margin' THEN margin
                ELSE final_gold END AS value
    FROM seats_in WHERE coalesce($metric, 'final_gold') <> 'victory_margin'
    UNION ALL
    SELECT game_players, max(margin) FROM seats_in
    WHERE $metric = 'victory_margin' GROUP BY game_id, game_players
)
SELECT players, floor(value / coalesce($bin_width, 10)) * coalesce($bin_width, 10) AS bin_start,
       count(*) AS count
FROM values_in
GROUP BY ALL
ORDER BY players, bin_start
