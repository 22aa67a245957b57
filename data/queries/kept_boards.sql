-- The boards the games the filters keep are played on: each board size (`rows`, `columns`),
-- the names of the rule sets played on it and its games, most games first. Filters (NULL = all):
-- $edition $variant $players $level $source $date_from $date_to $rules.
WITH kept_games AS (
    SELECT rules, sum(n) AS games FROM agg_games
    WHERE kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    GROUP BY rules
),
named AS (
    SELECT rules, min(name) AS name, min("rows") AS "rows", min("columns") AS "columns"
    FROM rule_sets GROUP BY rules
)
SELECT n."rows", n."columns", list(DISTINCT n.name ORDER BY n.name) AS rule_sets,
       CAST(sum(k.games) AS BIGINT) AS games
FROM kept_games k JOIN named n USING (rules)
GROUP BY n."rows", n."columns"
ORDER BY games DESC, n."rows", n."columns"
