-- The lake's rule sets (the Rule set filter's choices): each rule set's hash, name (the first
-- by name where batches named it differently), board and games, most games first.
WITH named AS (
    SELECT rules, min(name) AS name, min("rows") AS "rows", min("columns") AS "columns"
    FROM rule_sets GROUP BY rules
)
SELECT n.rules, n.name, n."rows", n."columns", CAST(sum(g.n) AS BIGINT) AS games
FROM named n JOIN agg_games g USING (rules)
GROUP BY ALL
ORDER BY games DESC, n.name, n.rules
