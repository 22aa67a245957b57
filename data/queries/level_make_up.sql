-- What play each level holds: per play level, each line-up of agents seated ('people' for
-- recorded players) and its games, under the filters other than the level.
-- Filters (NULL = all): $edition $variant $players $source $date_from $date_to.
SELECT level, agents, CAST(sum(n) AS BIGINT) AS games
FROM agg_games
WHERE kept(edition, variant, players, level, source, created, rules,
           $edition, $variant, $players, NULL, $source, $date_from, $date_to, $rules)
GROUP BY ALL
ORDER BY level, games DESC, agents
