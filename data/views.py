"""The views over the lake, declared in one place: one per table, named as the table.

Each view reads committed files (from the manifest) and adds the columns that follow from
what is stored: castles and tile impacts are stored on the turns that placed them, and their
views unfold them. `cells` lists the 30 board cells; the table macros
`filtered_games` and `filtered_seats` hold the dashboard's filters once for every query over
the game tables, `kept` the same filters for the `agg_…` views; the intervals' macros
(`half_width`, `standard_error`, `wilson`, `z95`) are engine/stats.py's.
`batch_<table>(source, batch)` reads one batch's stored table (for `moves`, its codes), for the
queries about one game, which `execute` tells where the game is stored.
"""

from __future__ import annotations

from pathlib import Path

from data.aggregates import aggregate_names
from data.lake import PART
from data.schema import CELL_NAMES, KINDS, PIECE_TOKENS, TABLES, VALUE_OFFSET
from engine import pieces, stats
from engine.actions import action_codes

# A stored turn's columns, its codes named (the lists in braces, from data/schema.py), with what
# follows from it: the select list of every view over `moves` (castle and tile views filter the
# stored kind code first, so the files skip the other turns).
DECODED_MOVES = """
       game_id, epoch, ply, turn,
       chr(CAST(65 + m.seat AS INTEGER)) AS seat,
       {kinds}[m.kind + 1] AS kind,
       {cells}[m.cell + 2] AS cell,
       CASE WHEN m.cell >= 0 THEN CAST(m.cell // 6 + 1 AS TINYINT) END AS cell_row,
       CASE WHEN m.cell >= 0 THEN CAST(m.cell % 6 + 1 AS TINYINT) END AS cell_column,
       {tokens}[m.piece + 1] AS piece,
       CASE WHEN m.kind = 0 THEN CAST((m.piece - 32) % 4 + 1 AS TINYINT) END AS castle_rank,
       CASE WHEN m.kind IN (1, 2) THEN CAST({values}[m.piece + 1] AS TINYINT) END AS tile_value,
       CAST(turn_action(m.kind, m.piece, m.cell) AS SMALLINT) AS action,
       legal_actions, gold_before,
       CASE WHEN m.kind = 0 THEN CAST(value_c AS TINYINT) END AS effective_rank,
       CASE WHEN m.kind = 0 THEN CAST(CAST(value_a AS INTEGER) - {offset} AS SMALLINT) END
           AS row_gold,
       CASE WHEN m.kind = 0 THEN CAST(CAST(value_b AS INTEGER) - {offset} AS SMALLINT) END
           AS column_gold,
       CASE WHEN m.kind IN (1, 2) AND value_a > 0
           THEN CAST(CAST(value_a AS INTEGER) - {offset} AS SMALLINT) END AS impact_a,
       CASE WHEN m.kind IN (1, 2) AND value_b > 0
           THEN CAST(CAST(value_b AS INTEGER) - {offset} AS SMALLINT) END AS impact_b,
       CASE WHEN m.kind IN (1, 2) AND value_c > 0
           THEN CAST(CAST(value_c AS INTEGER) - {offset} AS SMALLINT) END AS impact_c,
       CASE WHEN m.kind IN (1, 2) AND value_d > 0
           THEN CAST(CAST(value_d AS INTEGER) - {offset} AS SMALLINT) END AS impact_d,
       source, batch_id
"""

# A stored turn's engine actions, from the action codec (engine/actions.py, the lists in braces):
# `turn_action` the one that places (or passes), `turn_actions` all of them (a draw is the draw,
# or in no-luck the choice, the tile seen, and where it went). Declared before the views use them.
ACTION_MACROS = """
CREATE MACRO turn_action(kind, piece, cell) AS
    CASE kind WHEN {castle} THEN {castle_ids}[CAST(piece AS INTEGER) + 1] + CAST(cell AS INTEGER)
              WHEN {draw} THEN {place} + CAST(cell AS INTEGER)
              WHEN {start} THEN {start_id} + CAST(cell AS INTEGER)
              ELSE {pass_id} END;
CREATE MACRO turn_actions(kind, piece, cell, no_luck) AS
    CASE WHEN kind <> {draw} THEN [turn_action(kind, piece, cell)]
         WHEN no_luck THEN [{choose} + CAST(piece AS INTEGER), turn_action(kind, piece, cell)]
         ELSE [{draw_id}, CAST(piece AS INTEGER), turn_action(kind, piece, cell)] END
"""

# The game views, over the stored tables named in braces (and the moves' select list). Only
# `games` has the partition columns (`source`, `batch_id`), so that joins over `game_id` stay
# plain; `_moves` (every stored turn), `_seats` and `_castles` keep them for the queries that
# read only some batches. Castles and tiles on the final boards are the castle and tile turns.
GAME_VIEWS = """
CREATE VIEW games AS SELECT * FROM {games};
CREATE VIEW _seats AS SELECT * FROM {seats};
CREATE VIEW seats AS SELECT * EXCLUDE (source, batch_id) FROM _seats;
CREATE VIEW epoch_scores AS SELECT * EXCLUDE (source, batch_id) FROM {epoch_scores};
CREATE VIEW _moves AS SELECT {decoded} FROM {moves} m;
CREATE VIEW moves AS
SELECT game_id, epoch, ply, turn, seat, kind, cell, cell_row, cell_column, piece, castle_rank,
       tile_value, action, legal_actions, gold_before
FROM _moves;
CREATE VIEW _castles AS
SELECT game_id, epoch, seat, cell, cell_row, cell_column, castle_rank AS rank, effective_rank,
       turn, row_gold, column_gold, CAST(row_gold + column_gold AS SMALLINT) AS gold,
       source, batch_id
FROM (SELECT {decoded} FROM {moves} m WHERE m.kind = 0);
CREATE VIEW castles AS SELECT * EXCLUDE (source, batch_id) FROM _castles;
CREATE VIEW tile_placements AS
SELECT game_id, epoch, cell, cell_row, cell_column, piece AS tile, seat AS placer,
       CASE kind WHEN 'draw' THEN 'drawn' ELSE 'start' END AS placed_by, turn,
       CAST(least(5, (CAST(turn AS INTEGER) - 1) * 5 // turns_in_epoch + 1) AS TINYINT)
           AS timing,
       impact_a, impact_b, impact_c, impact_d
FROM (SELECT {decoded} FROM {moves} m WHERE m.kind IN (1, 2))
JOIN (SELECT game_id, epoch, max(turn) AS turns_in_epoch FROM {moves} GROUP BY ALL)
    USING (game_id, epoch);
CREATE VIEW tile_impacts AS
SELECT game_id, epoch, cell, cell_row, cell_column, tile, placer, placed_by, turn, timing,
       seat, impact
FROM (
    SELECT *, unnest([
        {{'seat': 'A', 'impact': impact_a}}, {{'seat': 'B', 'impact': impact_b}},
        {{'seat': 'C', 'impact': impact_c}}, {{'seat': 'D', 'impact': impact_d}}
    ], recursive := true)
    FROM tile_placements
) WHERE impact IS NOT NULL
"""

MACROS = """
CREATE VIEW cells AS
SELECT chr(CAST(97 + c % 6 AS INTEGER)) || (c // 6 + 1) AS cell,
       CAST(c // 6 + 1 AS TINYINT) AS cell_row,
       CAST(c % 6 + 1 AS TINYINT) AS cell_column
FROM range(30) t(c);

CREATE MACRO tile_split(choice_, epoch_, timing_, placed_by_, agent_) AS
    CASE coalesce(choice_, 'all')
        WHEN 'epoch' THEN CAST(epoch_ AS VARCHAR)
        WHEN 'timing' THEN CAST(timing_ AS VARCHAR)
        WHEN 'placed_by' THEN placed_by_
        WHEN 'agent' THEN coalesce(agent_, 'people')
        ELSE 'all' END;

CREATE MACRO kept(edition_, variant_, players_, source_, created_,
                  edition, variant, players, source, date_from, date_to) AS
    (edition IS NULL OR edition_ = edition)
    AND (variant IS NULL OR variant_ = variant)
    AND (players IS NULL OR players_ = players)
    AND (source IS NULL OR source_ = source)
    AND (date_from IS NULL OR created_ >= CAST(date_from AS TIMESTAMPTZ))
    AND (date_to IS NULL OR created_ < CAST(date_to AS TIMESTAMPTZ) + INTERVAL 1 DAY);

CREATE MACRO filtered_games(edition, variant, players, source, date_from, date_to) AS TABLE
SELECT * FROM games g
WHERE (edition IS NULL OR g.edition = edition)
  AND (variant IS NULL OR g.variant = variant)
  AND (players IS NULL OR g.players = players)
  AND (source IS NULL OR g.source = source)
  AND (date_from IS NULL OR g.created >= CAST(date_from AS TIMESTAMPTZ))
  AND (date_to IS NULL OR g.created < CAST(date_to AS TIMESTAMPTZ) + INTERVAL 1 DAY);

CREATE MACRO filtered_seats(edition, variant, players, source, date_from, date_to, agent, player)
AS TABLE
SELECT s.*, g.players AS game_players FROM seats s
JOIN filtered_games(edition, variant, players, source, date_from, date_to) g USING (game_id)
WHERE (agent IS NULL OR s.agent = agent)
  AND (player IS NULL OR s.player = player);
"""

# The 95% intervals (engine/stats.py), `z95()` filled in from the engine's constant: the
# standard error of a mean from count, sum and sum of squares, its half width, and a Wilson
# bound (`bound` −1 for the lower end, +1 for the upper; NULL without observations).
INTERVAL_MACROS = f"""
CREATE MACRO z95() AS CAST({stats.Z95!r} AS DOUBLE);

CREATE MACRO standard_error(n, total, total_sq) AS
    sqrt(greatest(total_sq - total * total / n, 0) / nullif(n - 1, 0) / n);

CREATE MACRO half_width(n, total, total_sq) AS z95() * standard_error(n, total, total_sq);

CREATE MACRO wilson(hits, n, bound) AS
    CASE WHEN n > 0 THEN least(1, greatest(0,
        (hits / n + z95() ^ 2 / (2 * n) + bound * z95() * sqrt((hits / n) * (1 - hits / n) / n
            + z95() ^ 2 / (4 * n * n))) / (1 + z95() ^ 2 / n))) END;
"""


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _sql_list(values) -> str:
    return "[" + ", ".join("NULL" if v is None else _sql_value(v) for v in values) + "]"


def _sql_value(value: str | int) -> str:
    return _quoted(value) if isinstance(value, str) else str(value)


_CODE_LISTS = {
    "kinds": _sql_list(KINDS),
    "cells": _sql_list([None, *CELL_NAMES]),
    "tokens": _sql_list(PIECE_TOKENS),
    "values": _sql_list(pieces.TILE_VALUE[: pieces.CASTLE_BASE]),
    "offset": VALUE_OFFSET,
}


def _action_lists() -> dict[str, str | int]:
    """The action ids the SQL needs, from the codec of the lake's board (CELL_NAMES)."""
    codes = action_codes(len(CELL_NAMES))
    castle_ids = [
        codes.castle(pieces.castle_rank(code), 0) if pieces.is_castle(code) else None
        for code in range(len(PIECE_TOKENS))
    ]
    return {
        **{kind: KINDS.index(kind) for kind in ("castle", "draw", "start")},
        "castle_ids": _sql_list(castle_ids),
        "place": codes.place_drawn(0),
        "start_id": codes.start(0),
        "pass_id": codes.pass_,
        "draw_id": codes.draw,
        "choose": codes.choose(0),
    }


def _literal(path: Path) -> str:
    return _quoted(str(path))


def stand_in(name: str, table: str) -> str:
    """A stored table read from a DuckDB table or registered frame, without partitions."""
    return f"(SELECT *, NULL::VARCHAR AS source, NULL::BIGINT AS batch_id FROM {table})"


def _files_source(name: str, paths: list[Path]) -> str:
    if not paths:
        return stand_in(name, f"empty_{name}")
    listed = ", ".join(_literal(p) for p in paths)
    return f"read_parquet([{listed}], hive_partitioning = true)"


def game_view_statements(sources: dict[str, str]) -> list[str]:
    """The game views (and `cells` and the macros), each stored table read from `sources`."""
    text = GAME_VIEWS.format(**sources, decoded=DECODED_MOVES.format(**_CODE_LISTS))
    actions = ACTION_MACROS.format(**_action_lists())
    return [
        s for s in (actions + ";" + text + ";" + MACROS + INTERVAL_MACROS).split(";") if s.strip()
    ]


def _batch_macro(name: str, root: Path, files: list[Path]) -> str:
    """`batch_<name>(part_source, part_batch)`: one batch's stored table, read from its file
    (committed: its batch came from the lake's index), so a query about one game binds one
    file instead of every batch's."""
    source = stand_in(name, f"empty_{name}")
    if files:
        path = f"{_literal(root / name)} || '/source=' || part_source || '/batch_id=' || part_batch"
        source = f"read_parquet({path} || '/{PART}', hive_partitioning = true)"
    return f"CREATE MACRO batch_{name}(part_source, part_batch) AS TABLE SELECT * FROM {source}"


def view_statements(files: dict[str, list[Path]], root: Path) -> list[str]:
    """Every view and macro of the lake at `root`, over its committed files (`empty_<name>`
    for a table with none yet, which the caller creates)."""
    sources = {name: _files_source(name, files.get(name, [])) for name in TABLES}
    statements = game_view_statements(sources)
    statements += [_batch_macro(name, root, files.get(name, [])) for name in TABLES]
    for name in aggregate_names():
        source = _files_source(name, files.get(name, []))
        statements.append(f"CREATE VIEW {name} AS SELECT * FROM {source}")
    return statements
