-- Distribution of $metric per player count, in bins of $bin_width gold (default 10):
-- 'final_gold' (every seat, the default), 'margin' (every seat) or 'victory_margin' (the
-- winners' margins). Filters (NULL = all): $edition $variant $players $level $source $date_from
-- $date_to $agent $player.
SELECT players,
       floor(value / coalesce($bin_width, 10)) * coalesce($bin_width, 10) AS bin_start,
       CAST(sum(n) AS BIGINT) AS count
FROM agg_scores
WHERE kept(edition, variant, players, level, source, created, rules,
         $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
  AND metric = coalesce($metric, 'final_gold')
GROUP BY ALL
ORDER BY players, bin_start
