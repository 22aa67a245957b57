"""The views over the lake, declared in one place: one per table, named as the table, adding
what follows from the stored codes; each game's play level; the dashboard's filter macros;
engine/stats.py's intervals."""

from __future__ import annotations

from pathlib import Path

from data.levels import game_levels_sql
from data.schema import (
    CELL_NAMES,
    GRID,
    KINDS,
    PART,
    PIECE_CODES,
    PLACEMENT_COLUMNS,
    TABLE_SCHEMAS,
    VALUE_OFFSET,
    aggregate_names,
    board_cells,
    piece_tokens,
)
from engine import pieces, stats
from engine.actions import action_codes
from engine.rulefile import SIDES
from engine.rules import EDITIONS, RuleSet

# A stored turn's columns, its codes named (the lists in braces, generated from data/schema.py
# and the engine's pieces and board), with what follows from it: the select list of every view
# over `moves` (castle and tile views filter the stored kind code first).
DECODED_MOVES = """
       game_id, epoch, ply, turn,
       {seat_letters}[m.seat + 1] AS seat,
       {kinds}[m.kind + 1] AS kind,
       {cells}[m.cell + 2] AS cell,
       CAST({cell_rows}[m.cell + 2] AS TINYINT) AS cell_row,
       CAST({cell_columns}[m.cell + 2] AS TINYINT) AS cell_column,
       {tokens}[m.piece + 1] AS piece,
       CAST({castle_ranks}[m.piece + 1] AS TINYINT) AS castle_rank,
       CASE WHEN m.kind IN ({tile_kinds}) THEN CAST({values}[m.piece + 1] AS TINYINT) END
           AS tile_value,
       legal_actions, gold_before,
       CASE WHEN m.kind = {castle} THEN CAST(effective_rank_or_impact_c AS TINYINT) END
           AS effective_rank,
       CASE WHEN m.kind = {castle}
           THEN CAST(CAST(row_gold_or_impact_a AS INTEGER) - {offset} AS SMALLINT) END
           AS row_gold,
       CASE WHEN m.kind = {castle}
           THEN CAST(CAST(column_gold_or_impact_b AS INTEGER) - {offset} AS SMALLINT) END
           AS column_gold,
       {impacts},
       source, batch_id
"""

# The action that places (or passes) a decoded turn at cell `place` (numbered row by row) of a
# board of `cells` cells, from the action codec (engine/actions.py: each block's first id is
# a + b × cells, the lists and numbers in braces). Declared before the views use it.
ACTION_MACRO = """
CREATE MACRO turn_action(kind, rank, place, cells) AS
    CASE kind WHEN 'castle' THEN {castle_a}[rank] + {castle_b}[rank] * cells + place
              WHEN 'draw' THEN {place_a} + {place_b} * cells + place
              WHEN 'start' THEN {start_a} + {start_b} * cells + place
              ELSE {pass_a} + {pass_b} * cells END
"""

# The game views, over the stored tables named in braces (and the moves' select list), each
# bound when a query first uses it (DEFER_BINDING), so that opening a connection reads no
# footer and binds no select list. Only `games` has the partition columns (`source`,
# `batch_id`), so that joins over `game_id` stay plain; `_moves` (every stored turn), `_seats`
# and `_castles` keep them for the queries that read only some batches. Castles and tiles on
# the final boards are the castle and tile turns.
GAME_VIEWS = """
CREATE VIEW games WITH (DEFER_BINDING) AS SELECT * EXCLUDE (actions) FROM {games};
CREATE VIEW rule_sets WITH (DEFER_BINDING) AS
SELECT DISTINCT rules, name, text, "rows", "columns", tiles FROM {rule_sets};
CREATE VIEW _seats WITH (DEFER_BINDING) AS SELECT * FROM {seats};
CREATE VIEW seats WITH (DEFER_BINDING) AS SELECT * EXCLUDE (source, batch_id) FROM _seats;
CREATE VIEW game_levels WITH (DEFER_BINDING) AS {game_levels};
CREATE MACRO batch_levels(batches) AS TABLE {batch_levels};
CREATE VIEW epoch_scores WITH (DEFER_BINDING) AS
SELECT * EXCLUDE (source, batch_id) FROM {epoch_scores};
CREATE VIEW _moves WITH (DEFER_BINDING) AS SELECT {decoded} FROM {moves} m;
CREATE VIEW moves WITH (DEFER_BINDING) AS
SELECT game_id, epoch, ply, turn, seat, kind, cell, cell_row, cell_column, piece, castle_rank,
       tile_value,
       CAST(turn_action(kind, castle_rank, (cell_row - 1) * b.board_columns + cell_column - 1,
                        b.board_rows * b.board_columns) AS SMALLINT) AS action,
       legal_actions, gold_before
FROM _moves JOIN (SELECT game_id, rules FROM {games}) USING (game_id)
JOIN (SELECT DISTINCT rules, CAST("rows" AS INTEGER) AS board_rows,
             CAST("columns" AS INTEGER) AS board_columns FROM {rule_sets}) b USING (rules);
CREATE VIEW _castles WITH (DEFER_BINDING) AS
SELECT game_id, epoch, seat, cell, cell_row, cell_column, castle_rank AS rank, effective_rank,
       turn, row_gold, column_gold, CAST(row_gold + column_gold AS SMALLINT) AS gold,
       source, batch_id
FROM (SELECT {decoded} FROM {moves} m WHERE m.kind = {castle});
CREATE VIEW castles WITH (DEFER_BINDING) AS SELECT * EXCLUDE (source, batch_id) FROM _castles;
CREATE VIEW tile_placements WITH (DEFER_BINDING) AS
SELECT game_id, epoch, cell, cell_row, cell_column, piece AS tile, seat AS placer,
       CASE kind WHEN 'draw' THEN 'drawn' ELSE 'start' END AS placed_by, turn,
       CAST(least(5, (CAST(turn AS INTEGER) - 1) * 5 // turns_in_epoch + 1) AS TINYINT)
           AS timing,
       {impact_columns}
FROM (SELECT {decoded} FROM {moves} m WHERE m.kind IN ({tile_kinds}))
JOIN (SELECT game_id, epoch, max(turn) AS turns_in_epoch FROM {moves} GROUP BY ALL)
    USING (game_id, epoch);
CREATE VIEW tile_impacts WITH (DEFER_BINDING) AS
SELECT game_id, epoch, cell, cell_row, cell_column, tile, placer, placed_by, turn, timing,
       seat, impact
FROM (
    SELECT *, unnest([{seat_impacts}], recursive := true)
    FROM tile_placements
) WHERE impact IS NOT NULL
"""

# The engine's pieces and each edition's tiles, as rows (the lists in braces, from the engine):
# what SQL names a piece's kind with, orders tiles by, and which tiles an edition has.
PIECE_VIEWS = """
CREATE VIEW pieces AS
SELECT CAST(code AS TINYINT) AS code, piece, piece_kind, CAST(tile_value AS TINYINT) AS tile_value
FROM (VALUES {pieces}) t(code, piece, piece_kind, tile_value);
CREATE VIEW board_cells AS
SELECT CAST("rows" AS TINYINT) AS "rows", CAST("columns" AS TINYINT) AS "columns", cell,
       CAST(cell_row AS TINYINT) AS cell_row, CAST(cell_column AS TINYINT) AS cell_column,
       mirror_cell
FROM (VALUES {board_cells}) t("rows", "columns", cell, cell_row, cell_column, mirror_cell);
CREATE VIEW edition_tiles AS
SELECT edition, tile, CAST(copies AS TINYINT) AS copies
FROM (VALUES {edition_tiles}) t(edition, tile, copies)
"""

MACROS = """
CREATE MACRO action_list(actions) AS
    list_transform(range(octet_length(actions) // 2),
                   lambda i: ('0x' || substr(hex(actions), 4 * i + 3, 2)
                                   || substr(hex(actions), 4 * i + 1, 2))::SMALLINT);

CREATE VIEW rule_set_cells WITH (DEFER_BINDING) AS
SELECT DISTINCT r.rules, b."rows", b."columns", b.cell, b.cell_row, b.cell_column, b.mirror_cell
FROM rule_sets r JOIN board_cells b USING ("rows", "columns");

CREATE MACRO lake_cells(rules_, rows_, columns_) AS TABLE
SELECT DISTINCT cell, cell_row, cell_column, mirror_cell FROM rule_set_cells
WHERE (rules_ IS NULL OR rules = rules_) AND (rows_ IS NULL OR "rows" = rows_)
  AND (columns_ IS NULL OR "columns" = columns_);

CREATE VIEW cells WITH (DEFER_BINDING) AS SELECT * FROM lake_cells(NULL, NULL, NULL);

CREATE MACRO tile_split(choice_, epoch_, timing_, placed_by_, agent_) AS
    CASE coalesce(choice_, 'all')
        WHEN 'epoch' THEN CAST(epoch_ AS VARCHAR)
        WHEN 'timing' THEN CAST(timing_ AS VARCHAR)
        WHEN 'placed_by' THEN placed_by_
        WHEN 'agent' THEN coalesce(agent_, 'people')
        ELSE 'all' END;

CREATE MACRO kept(edition_, variant_, players_, level_, source_, created_, rules_,
                  edition, variant, players, level, source, date_from, date_to, rules) AS
    (edition IS NULL OR edition_ = edition)
    AND (variant IS NULL OR variant_ = variant)
    AND (players IS NULL OR players_ = players)
    AND (level IS NULL OR level_ = level)
    AND (source IS NULL OR source_ = source)
    AND (date_from IS NULL OR created_ >= CAST(date_from AS TIMESTAMPTZ))
    AND (date_to IS NULL OR created_ < CAST(date_to AS TIMESTAMPTZ) + INTERVAL 1 DAY)
    AND (rules IS NULL OR rules_ = rules);

CREATE MACRO filtered_games(edition, variant, players, source, date_from, date_to, rules) AS TABLE
SELECT * FROM games g
WHERE (edition IS NULL OR g.edition = edition)
  AND (variant IS NULL OR g.variant = variant)
  AND (players IS NULL OR g.players = players)
  AND (source IS NULL OR g.source = source)
  AND (date_from IS NULL OR g.created >= CAST(date_from AS TIMESTAMPTZ))
  AND (date_to IS NULL OR g.created < CAST(date_to AS TIMESTAMPTZ) + INTERVAL 1 DAY)
  AND (rules IS NULL OR g.rules = rules);

CREATE MACRO filtered_seats(edition, variant, players, source, date_from, date_to, agent, player,
                            rules) AS TABLE
SELECT s.*, g.players AS game_players FROM seats s
JOIN filtered_games(edition, variant, players, source, date_from, date_to, rules) g
    USING (game_id)
WHERE (agent IS NULL OR s.agent = agent)
  AND (player IS NULL OR s.player = player);
"""

# The 95% intervals (engine/stats.py), `z95()` filled in from the engine's constant: the
# standard error of a mean from count, sum and sum of squares, its half width, the half width
# of a ratio of sums Σx/Σy over n games (delta method: each game one observation), and a Wilson
# bound (`bound` −1 for the lower end, +1 for the upper; NULL without observations).
INTERVAL_MACROS = f"""
CREATE MACRO z95() AS CAST({stats.Z95!r} AS DOUBLE);

CREATE MACRO standard_error(n, total, total_sq) AS
    sqrt(greatest(total_sq - total * total / n, 0) / nullif(n - 1, 0) / n);

CREATE MACRO half_width(n, total, total_sq) AS z95() * standard_error(n, total, total_sq);

CREATE MACRO ratio_half_width(n, x, y, x_sq, xy, y_sq) AS
    z95() * sqrt(greatest(x_sq - 2 * (x / y) * xy + (x / y) ^ 2 * y_sq, 0) / nullif(n - 1, 0) / n)
        / (y / n);

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


def _sql_rows(rows) -> str:
    """Rows for a VALUES list: each a tuple of strings, integers and None (NULL)."""
    return ", ".join(
        "(" + ", ".join("NULL" if v is None else _sql_value(v) for v in row) + ")" for row in rows
    )


def _piece_rows() -> list[tuple[int, str, str, int | None]]:
    """Every piece the lake stores: its code, token, kind and (a tile's) face value."""
    tokens = piece_tokens()
    return [
        (
            code,
            token,
            pieces.piece_kind(code),
            None if pieces.is_castle(code) else pieces.tile_value(code),
        )
        for code, token in zip(PIECE_CODES, tokens, strict=True)
        if token is not None
    ]


def _edition_tile_rows() -> list[tuple[str, str, int]]:
    """Every edition's tile kinds, each with its number of copies in the edition's tile set."""
    rows = []
    for edition in EDITIONS:
        tiles = RuleSet(edition=edition).tiles
        rows += [(edition, pieces.piece_token(t), tiles.count(t)) for t in sorted(set(tiles))]
    return rows


def _board_cell_rows() -> list[tuple[int, int, str, int, int, str]]:
    """Every cell of every board a rule set may have: its size, the cell's name, row and column
    (from 1), and its mirror class (data/schema.py `board_cells`)."""
    return [
        (rows, columns, cell, at // columns + 1, at % columns + 1, mirror)
        for rows in SIDES
        for columns in SIDES
        for at, (cell, mirror) in enumerate(board_cells(rows, columns))
    ]


def _action_firsts() -> dict[str, str | int]:
    """The first action id of each block as a + b × cells (the codec's blocks are each a cell
    wide or of fixed width), for `turn_action`: read off boards of one and two cells."""
    one, two = action_codes(1), action_codes(2)
    firsts = {
        "castle": [(one.castle(rank, 0), two.castle(rank, 0)) for rank in pieces.CASTLE_RANKS],
        "place": [(one.place_drawn(0), two.place_drawn(0))],
        "start": [(one.start(0), two.start(0))],
        "pass": [(one.pass_, two.pass_)],
    }
    lists: dict[str, str | int] = {}
    for block, pairs in firsts.items():
        a = [2 * first_one - first_two for first_one, first_two in pairs]
        b = [first_two - first_one for first_one, first_two in pairs]
        lists[f"{block}_a"], lists[f"{block}_b"] = (
            (_sql_list(a), _sql_list(b)) if block == "castle" else (a[0], b[0])
        )
    return lists


def _code_lists() -> dict[str, str | int]:
    """The lists and codes the SQL reads stored codes with, from the catalogue and the engine."""
    cells, piece_codes = range(len(CELL_NAMES)), PIECE_CODES
    letters = pieces.SEAT_LETTERS[: pieces.MAX_SEATS]
    impacts = [
        f"CASE WHEN m.kind IN ({{tile_kinds}}) AND {column} > 0 THEN "
        f"CAST(CAST({column} AS INTEGER) - {{offset}} AS SMALLINT) END AS impact_{letter.lower()}"
        for letter, column in zip(letters, PLACEMENT_COLUMNS, strict=True)
    ]
    lists: dict[str, str | int] = {
        "seat_letters": _sql_list(letters),
        "impact_columns": ", ".join(f"impact_{letter.lower()}" for letter in letters),
        "seat_impacts": ", ".join(
            f"{{'seat': {_quoted(letter)}, 'impact': impact_{letter.lower()}}}"
            for letter in letters
        ),
        "pieces": _sql_rows(_piece_rows()),
        "edition_tiles": _sql_rows(_edition_tile_rows()),
        "kinds": _sql_list(KINDS),
        "cells": _sql_list([None, *CELL_NAMES]),
        "cell_rows": _sql_list([None, *(GRID.row_of(c) + 1 for c in cells)]),
        "cell_columns": _sql_list([None, *(GRID.column_of(c) + 1 for c in cells)]),
        "board_cells": _sql_rows(_board_cell_rows()),
        **_action_firsts(),
        "tokens": _sql_list(piece_tokens()),
        "castle_ranks": _sql_list(
            [pieces.castle_rank(p) if pieces.is_castle(p) else None for p in piece_codes]
        ),
        "values": _sql_list(pieces.TILE_VALUE[: pieces.CASTLE_BASE]),
        "offset": VALUE_OFFSET,
        **{kind: KINDS.index(kind) for kind in ("castle", "draw", "start")},
        "tile_kinds": f"{KINDS.index('draw')}, {KINDS.index('start')}",
    }
    lists["impacts"] = ",\n       ".join(impacts).format(**lists)
    return lists


def _literal(path: Path) -> str:
    return _quoted(str(path))


def without_partitions(table: str) -> str:
    """A stored table read from a DuckDB table or registered frame, partition columns NULL."""
    return f"(SELECT *, NULL::VARCHAR AS source, NULL::BIGINT AS batch_id FROM {table})"


def _files_source(name: str, paths: list[Path]) -> str:
    if not paths:
        return without_partitions(f"empty_{name}")
    listed = ", ".join(_literal(p) for p in paths)
    return f"read_parquet([{listed}], hive_partitioning = true)"


def game_view_statements(sources: dict[str, str]) -> list[str]:
    """The game views (and `cells` and the macros), each stored table read from `sources`."""
    lists = _code_lists()
    levels = {
        "game_levels": game_levels_sql(sources["seats"]),
        "batch_levels": game_levels_sql(
            f"(SELECT * FROM {sources['seats']} WHERE list_contains(batches, batch_id))"
        ),
    }
    decoded = DECODED_MOVES.format(**lists)
    text = GAME_VIEWS.format(**sources, **lists, **levels, decoded=decoded)
    script = ";".join(
        (ACTION_MACRO.format(**lists), text, PIECE_VIEWS.format(**lists), MACROS.format(**lists))
    )
    return [s for s in (script + ";" + INTERVAL_MACROS).split(";") if s.strip()]


def _batch_macro(name: str, root: Path, files: list[Path]) -> str:
    """`batch_<name>(part_source, part_batch)`: one committed batch's stored table, so that a
    query about one game binds one file instead of every batch's."""
    source = without_partitions(f"empty_{name}")
    if files:
        path = f"{_literal(root / name)} || '/source=' || part_source || '/batch_id=' || part_batch"
        source = f"read_parquet({path} || '/{PART}', hive_partitioning = true)"
    return f"CREATE MACRO batch_{name}(part_source, part_batch) AS TABLE SELECT * FROM {source}"


def view_statements(files: dict[str, list[Path]], root: Path) -> list[str]:
    """Every view and macro of the lake at `root`, over its committed files (`empty_<name>`
    for a table with none yet, which the caller creates)."""
    sources = {name: _files_source(name, files.get(name, [])) for name in TABLE_SCHEMAS}
    statements = game_view_statements(sources)
    statements += [_batch_macro(name, root, files.get(name, [])) for name in TABLE_SCHEMAS]
    decoded = DECODED_MOVES.format(**_code_lists())
    statements.append(
        "CREATE MACRO batch_decoded_moves(part_source, part_batch) AS TABLE "
        f"SELECT {decoded} FROM batch_moves(part_source, part_batch) m"
    )
    for name in aggregate_names():
        source = _files_source(name, files.get(name, []))
        statements.append(f"CREATE VIEW {name} WITH (DEFER_BINDING) AS SELECT * FROM {source}")
    return statements
