-- Games and seats of the filtered games, by source, edition, variant, player count, play level
-- and agent ('person' for people); a game counts when one of its seats is of $agent and $player.
-- $edition $variant $players $level $source $date_from $date_to $rules $agent $player: the
-- dashboard filters.
-- Read from the per-batch aggregates, which list each game's agents; they cannot tell which
-- games seat a player, so a $player filter reads the seats instead.
WITH kept_games AS MATERIALIZED (
    SELECT source, edition, variant, players, level, n, string_split(agents, ', ') AS seated
    FROM agg_games
    WHERE $player IS NULL
      AND kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND ($agent IS NULL OR list_contains(string_split(agents, ', '), $agent))
), agent_games AS (
    SELECT CASE agent WHEN 'people' THEN 'person' ELSE agent END AS value,
           CAST(sum(n) AS BIGINT) AS games
    FROM kept_games, unnest(seated) AS seats(agent)
    WHERE $agent IS NULL OR agent = $agent
    GROUP BY ALL
), agent_seats AS (
    SELECT coalesce(agent, 'person') AS value, CAST(sum(n) AS BIGINT) AS seats
    FROM agg_seats
    WHERE $player IS NULL
      AND kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND ($agent IS NULL OR agent = $agent)
    GROUP BY ALL
), chosen AS (
    SELECT * FROM filtered_seats($edition, $variant, $players, $source, $date_from, $date_to,
                                 $agent, $player, $rules)
    WHERE $player IS NOT NULL
      AND game_id IN (SELECT game_id FROM game_levels WHERE $level IS NULL OR level = $level)
), chosen_games AS (
    SELECT source, edition, variant, players, level, 1 AS n FROM games JOIN game_levels USING (game_id)
    WHERE game_id IN (SELECT game_id FROM chosen)
    UNION ALL
    SELECT source, edition, variant, players, level, n FROM kept_games
)
SELECT 'source' AS dimension, source AS value, CAST(sum(n) AS BIGINT) AS games,
       CAST(sum(n * players) AS BIGINT) AS seats
FROM chosen_games GROUP BY ALL
UNION ALL
SELECT 'edition', edition, CAST(sum(n) AS BIGINT), CAST(sum(n * players) AS BIGINT)
FROM chosen_games GROUP BY ALL
UNION ALL
SELECT 'variant', CASE WHEN variant = '' THEN 'standard' ELSE variant END, CAST(sum(n) AS BIGINT),
       CAST(sum(n * players) AS BIGINT)
FROM chosen_games GROUP BY ALL
UNION ALL
SELECT 'players', players || ' players', CAST(sum(n) AS BIGINT), CAST(sum(n * players) AS BIGINT)
FROM chosen_games GROUP BY ALL
UNION ALL
SELECT 'level', level, CAST(sum(n) AS BIGINT), CAST(sum(n * players) AS BIGINT)
FROM chosen_games GROUP BY ALL
UNION ALL
SELECT 'agent', value, games, seats FROM agent_games JOIN agent_seats USING (value)
UNION ALL
SELECT 'agent', coalesce(agent, 'person'), count(DISTINCT game_id), count(*) FROM chosen GROUP BY ALL
ORDER BY dimension, games DESC, value
