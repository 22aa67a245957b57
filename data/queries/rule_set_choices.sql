-- The lake's rule sets (the Rule set filter's and the recorder's choices): each rule set's hash,
-- name (the first by name where batches named it differently) with the text that names it so,
-- board and games, most games first.
WITH named AS (
    SELECT rules, min(name) AS name, arg_min(text, name) AS text,
           min("rows") AS "rows", min("columns") AS "columns"
    FROM rule_sets GROUP BY rules
)
SELECT n.rules, n.name, n.text, n."rows", n."columns", CAST(sum(g.n) AS BIGINT) AS games
FROM named n JOIN agg_games g USING (rules)
GROUP BY ALL
ORDER BY games DESC, n.name, n.rules
