-- Games matching the filters, newest stored first (then newest played): id, source, rules,
-- players, who played, result, and the day it was played (`played`: a record's own `Date` tag
-- where it gives a whole date, else the day the game was stored, `created`).
-- Filters (NULL = all): $edition $variant $players $level $source $date_from $date_to (the day
-- stored) $played_from $played_to (the day played) $agent $player ($agent/$player: some seat of
-- the game); $limit (default 50), $offset (default 0).
-- Only the batches holding the page are read: the aggregates say from which date on at least
-- $offset + $limit games match (with a seat filter, a game counts its matching seats over its
-- players, which never counts more games than match); they do not know the day played, so a
-- filter on it reads every batch the other filters keep.
WITH counted AS (
    SELECT batch_id, created, sum(n) AS games FROM agg_games
    WHERE $agent IS NULL AND $player IS NULL
      AND kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
    GROUP BY ALL
    UNION ALL
    SELECT batch_id, created, sum(n / players) AS games FROM agg_seats
    WHERE ($agent IS NOT NULL OR $player IS NOT NULL)
      AND kept(edition, variant, players, level, source, created, rules,
               $edition, $variant, $players, $level, $source, $date_from, $date_to, $rules)
      AND ($agent IS NULL OR agent = $agent) AND ($player IS NULL OR player = $player)
    GROUP BY ALL
),
cutoff AS (  -- the newest date from which enough games match (-infinity: never enough)
    SELECT coalesce(max(created), '-infinity'::TIMESTAMPTZ) AS created FROM (
        SELECT created, sum(sum(games)) OVER (ORDER BY created DESC) AS running
        FROM counted GROUP BY created
    ) WHERE running >= coalesce($limit, 50) + coalesce($offset, 0)
      AND $played_from IS NULL AND $played_to IS NULL
),
batches AS (
    SELECT DISTINCT batch_id FROM counted
    WHERE created >= (SELECT created FROM cutoff)
),
dated AS (
    SELECT *, coalesce(CAST(try_strptime(tags['Date'], '%Y.%m.%d') AS DATE),
                       CAST(created AS DATE)) AS played
    FROM filtered_games($edition, $variant, $players, $source, $date_from, $date_to, $rules)
),
page AS (
    SELECT g.game_id, g.source, g.edition, g.variant, g.players, g.plies, g.played, g.created,
           g.batch_id
    FROM dated g
    WHERE g.batch_id IN (SELECT batch_id FROM batches)
      AND ($played_from IS NULL OR g.played >= CAST($played_from AS DATE))
      AND ($played_to IS NULL OR g.played <= CAST($played_to AS DATE))
      AND g.created >= (SELECT created FROM cutoff)
      AND ($level IS NULL OR g.game_id IN (
          SELECT game_id FROM batch_levels((SELECT list(batch_id) FROM batches))
          WHERE level = $level))
      AND (($agent IS NULL AND $player IS NULL)
           OR g.game_id IN (SELECT game_id FROM _seats
                            WHERE batch_id IN (SELECT batch_id FROM batches)
                              AND ($agent IS NULL OR agent = $agent)
                              AND ($player IS NULL OR player = $player)))
    ORDER BY g.created DESC, g.played DESC, g.game_id
    LIMIT coalesce($limit, 50) OFFSET coalesce($offset, 0)
)
SELECT p.game_id, p.source, p.edition, p.variant, p.players, p.plies, p.played, p.created,
       p.batch_id,
       string_agg(s.seat || ' ' || s.player, ', ' ORDER BY s.seat) AS seated,
       string_agg(s.seat || ' ' || s.final_gold, ', ' ORDER BY s.seat) AS result,
       string_agg(s.seat, ',' ORDER BY s.seat) FILTER (WHERE s.win_share > 0) AS winners
FROM page p
JOIN _seats s ON s.game_id = p.game_id AND s.batch_id IN (SELECT batch_id FROM page)
GROUP BY ALL
ORDER BY p.created DESC, p.played DESC, p.game_id
