"""The views over the lake, declared in one place: one per table, named as the table.

Each view reads the table's committed files (from the manifest) and adds the columns that
follow from the stored ones. `cells` lists the 30 board cells; the table macros
`filtered_games` and `filtered_seats` hold the dashboard's filters once for every query over
the game tables, `kept` the same filters for the `agg_…` views; `half_width` (mean ± 1.96·SE
from count, sum and sum of squares) and `wilson` (a proportion's bound, ±1) are the intervals.
"""

from __future__ import annotations

from pathlib import Path

from data.aggregates import aggregate_names
from data.schema import TABLES

# Columns each view adds to its stored table.
DERIVED = {
    "games": "",
    "seats": "",
    "moves": """,
        CAST(substr(cell, 2) AS TINYINT) AS cell_row,
        CAST(ascii(cell[1]) - 96 AS TINYINT) AS cell_column,
        CASE WHEN kind = 'castle' THEN CAST(piece[2:] AS TINYINT) END AS castle_rank,
        CASE WHEN kind IN ('draw', 'start') THEN
            CASE WHEN piece[1] IN ('+', '-') THEN CAST(piece AS TINYINT) ELSE 0 END
        END AS tile_value,
        CAST(CASE kind
            WHEN 'castle' THEN (CAST(piece[2:] AS INTEGER) - 1) * 30 + cell_index
            WHEN 'start' THEN 120 + cell_index
            WHEN 'draw' THEN 150 + cell_index
            ELSE 181 END AS SMALLINT) AS action""",
    "epoch_scores": "",
    "castles": """,
        CAST(substr(cell, 2) AS TINYINT) AS cell_row,
        CAST(ascii(cell[1]) - 96 AS TINYINT) AS cell_column,
        CAST(row_gold + column_gold AS SMALLINT) AS gold""",
    "tile_impacts": "",
}

_CELL_INDEX = "(CAST(substr(cell, 2) AS INTEGER) - 1) * 6 + ascii(cell[1]) - 97"

_IMPACTS = """
CREATE VIEW tile_impacts AS
SELECT game_id, epoch, cell, tile, placer, placed_by, turn, timing, seat, impact,
       CAST(substr(cell, 2) AS TINYINT) AS cell_row,
       CAST(ascii(cell[1]) - 96 AS TINYINT) AS cell_column,
       source, batch_id
FROM (
    SELECT *, unnest([
        {{'seat': 'A', 'impact': impact_a}}, {{'seat': 'B', 'impact': impact_b}},
        {{'seat': 'C', 'impact': impact_c}}, {{'seat': 'D', 'impact': impact_d}}
    ], recursive := true)
    FROM {source}
) WHERE impact IS NOT NULL
"""

MACROS = """
CREATE VIEW cells AS
SELECT chr(CAST(97 + c % 6 AS INTEGER)) || (c // 6 + 1) AS cell,
       CAST(c // 6 + 1 AS TINYINT) AS cell_row,
       CAST(c % 6 + 1 AS TINYINT) AS cell_column
FROM range(30) t(c);

CREATE MACRO kept(edition_, variant_, players_, source_, created_,
                  edition, variant, players, source, date_from, date_to) AS
    (edition IS NULL OR edition_ = edition)
    AND (variant IS NULL OR variant_ = variant)
    AND (players IS NULL OR players_ = players)
    AND (source IS NULL OR source_ = source)
    AND (date_from IS NULL OR created_ >= CAST(date_from AS TIMESTAMPTZ))
    AND (date_to IS NULL OR created_ < CAST(date_to AS TIMESTAMPTZ) + INTERVAL 1 DAY);

CREATE MACRO half_width(n, total, total_sq) AS
    1.96 * sqrt(greatest(total_sq - total * total / n, 0) / nullif(n - 1, 0) / n);

CREATE MACRO wilson(hits, n, bound) AS
    (hits / n + 1.92 / n + bound * 1.96 * sqrt((hits / n) * (1 - hits / n) / n
        + 0.9604 / n ^ 2)) / (1 + 3.8416 / n);

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


def _literal(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def aggregate_statements(files: dict[str, list[Path]]) -> list[str]:
    """One view per aggregate (`agg_…`), over its committed files or `empty_<name>`."""
    statements = []
    for name in aggregate_names():
        paths = files.get(name, [])
        if paths:
            listed = ", ".join(_literal(p) for p in paths)
            source = f"read_parquet([{listed}], hive_partitioning = true)"
        else:
            source = (
                f"(SELECT *, NULL::VARCHAR AS source, NULL::BIGINT AS batch_id FROM empty_{name})"
            )
        statements.append(f"CREATE VIEW {name} AS SELECT * FROM {source}")
    return statements


def view_statements(files: dict[str, list[Path]]) -> list[str]:
    """The CREATE statements for every view and macro, over the given committed files.

    A table with no file yet reads `empty_<table>`, which the caller creates with the stored
    columns (see data/reader.py)."""
    statements = []
    for table in TABLES:
        paths = files.get(table, [])
        if paths:
            listed = ", ".join(_literal(p) for p in paths)
            source = f"read_parquet([{listed}], hive_partitioning = true)"
        else:
            source = (
                f"(SELECT *, NULL::VARCHAR AS source, NULL::BIGINT AS batch_id FROM empty_{table})"
            )
        if table == "tile_impacts":
            statements.append(_IMPACTS.format(source=source))
            continue
        derived = DERIVED[table]
        if table == "moves":
            derived = derived.replace("cell_index", f"({_CELL_INDEX})")
        statements.append(f"CREATE VIEW {table} AS SELECT *{derived} FROM {source}")
    statements += aggregate_statements(files)
    statements += [s for s in MACROS.split(";") if s.strip()]
    return statements
