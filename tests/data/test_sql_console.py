"""The SQL console cannot write or change anything, whatever the SQL: hostile statements on the
seeded lake, with every file of the lake hashed before and after; the row cap, the time limit,
CSV of list columns, and the schema it shows."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import polars as pl
import pytest

from data.console import (
    ROW_CAP,
    ConsoleResult,
    console_connection,
    console_schema,
    run_console,
)
from data.lake import MANIFEST, Lake, LakeError
from data.reader import QueryError, connect, execute
from data.view_columns import COLUMN_MEANINGS

# (statement, whether the console refuses it): {part} is a committed Parquet file of the lake,
# {lake} its folder, {out} a folder outside it, {cwd} the working folder (DuckDB's default
# temp folder is its `.tmp/`).
HOSTILE = [
    (
        "WITH x AS (COPY (SELECT * FROM games WHERE false) TO '{part}' (FORMAT parquet)) "
        "SELECT * FROM x",
        True,
    ),
    ("WITH x AS (COPY (SELECT 1 AS a) TO '{lake}/lake.json' (FORMAT csv)) SELECT * FROM x", True),
    ("SELECT * FROM (WITH x AS (COPY (SELECT 1) TO '{out}/sub.csv') SELECT * FROM x)", True),
    (
        "SELECT * FROM games WHERE game_id IN "
        "(WITH x AS (COPY (SELECT 1) TO '{out}/in.csv') SELECT * FROM x)",
        True,
    ),
    ("SELECT * FROM query('COPY (SELECT 1) TO ''{out}/q.csv''')", True),
    ("SELECT * FROM query('WITH x AS (COPY (SELECT 1) TO ''{part}'') SELECT * FROM x')", True),
    ("SELECT * FROM query_table('{part}')", True),
    ("SELECT count(*) FROM query_table('games')", False),
    ("COPY (SELECT 1) TO '{out}/stolen.csv'", True),
    ("COPY games TO '{lake}/games/stolen.parquet' (FORMAT parquet)", True),
    ("COPY (SELECT * FROM moves) TO '{cwd}/.tmp/spilled.csv'", True),
    ("EXPORT DATABASE '{out}/export'", True),
    ("EXPORT DATABASE '{lake}/export'", True),
    ("ATTACH '{out}/other.duckdb' AS other", True),
    ("ATTACH '{lake}/lake.duckdb' AS other", True),
    ("INSTALL httpfs", True),
    ("INSTALL '{out}/evil.duckdb_extension'", True),
    ("LOAD httpfs", True),
    ("SET enable_external_access = true", True),
    ("SET allowed_directories = ['{lake}/']", True),
    ("SET temp_directory = '{out}'", True),
    ("RESET lock_configuration", True),
    ("PRAGMA enable_profiling", True),
    ("PRAGMA profiling_output = '{out}/profile.json'", True),
    ("CALL enable_logging(storage = 'file', storage_path = '{out}')", True),
    ("CREATE TABLE stolen AS SELECT * FROM games", True),
    ("CREATE TEMP TABLE stolen AS SELECT 1", True),
    ("CREATE OR REPLACE TEMP VIEW games AS SELECT 1 AS game_id", True),
    ("CREATE OR REPLACE VIEW seats AS SELECT 1 AS game_id", True),
    ("CREATE MACRO wilson(a, b, c) AS 0", True),
    ("CREATE SECRET s (TYPE s3, KEY_ID 'k', SECRET 's')", True),
    ("CREATE PERSISTENT SECRET s (TYPE s3, KEY_ID 'k', SECRET 's')", True),
    ("DROP VIEW games", True),
    ("SET VARIABLE v = 1", True),
    ("SELECT 1; COPY (SELECT 1) TO '{out}/second.csv'", True),
    ("SELECT * FROM read_text('/etc/passwd')", True),
    ("SELECT * FROM read_text('{lake}/{manifest}')", True),
    ("SELECT * FROM read_csv('{lake}/../../../../../../etc/passwd', sep = ':')", True),
    ("SELECT * FROM read_csv('/etc/passwd', sep = ':')", True),
    ("SELECT * FROM sniff_csv('/etc/passwd')", True),
    ("SELECT * FROM glob('{lake}/../*')", True),
    ("SELECT * FROM glob('/*')", True),
    ("SELECT * FROM read_parquet('{part}')", True),
    ("SELECT * FROM read_parquet('{lake}/../**/*.parquet')", True),
    ("SELECT * FROM read_text('{cwd}/.tmp/*')", True),
    ("SELECT getenv('HOME')", True),
    ("SELECT * FROM games, (SELECT * FROM range(10) ORDER BY random()) LIMIT 3", False),
]


def _tree(root: Path) -> dict[str, str]:
    """Every file under `root` and the hash of its bytes."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def places(lake: Lake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The paths the statements aim at; the working folder is a fresh one, without `.tmp/`."""
    cwd, out = tmp_path / "cwd", tmp_path / "out"
    cwd.mkdir()
    out.mkdir()
    monkeypatch.chdir(cwd)
    return {
        "part": str(lake.files("games")[0]),
        "lake": str(lake.root),
        "manifest": MANIFEST,
        "out": str(out),
        "cwd": str(cwd),
    }


def _assert_untouched(lake: Lake, before: dict[str, str], places: dict[str, str]) -> None:
    assert _tree(lake.root) == before, "every file of the lake is byte-identical"
    assert not any(Path(places["out"]).iterdir()), "nothing written outside the lake"
    assert not (Path(places["cwd"]) / ".tmp").exists(), "nothing spilled to the temp folder"


@pytest.fixture(scope="module")
def game_count(lake: Lake) -> int:
    return execute(connect(lake), "SELECT count(*) AS n FROM games")["n"][0]


@pytest.mark.parametrize("statement, refused", HOSTILE)
def test_hostile_statement_is_refused_or_harmless(lake, places, statement, refused):
    before = _tree(lake.root)
    sql = statement.format(**places)
    if refused:
        with pytest.raises(QueryError):
            run_console(lake, sql)
    else:
        assert run_console(lake, sql).frame.height > 0
    _assert_untouched(lake, before, places)


@pytest.mark.parametrize("statement", [s for s, _ in HOSTILE])
def test_the_connection_itself_cannot_write_whatever_it_runs(lake, places, game_count, statement):
    """Straight on the console's connection, without the check that a statement is a query:
    the safety is in what the connection can reach."""
    before = _tree(lake.root)
    con = console_connection(lake)
    try:
        con.execute(statement.format(**places))
    except duckdb.Error:
        pass
    finally:
        con.close()
    _assert_untouched(lake, before, places)
    assert run_console(lake, "SELECT count(*) AS n FROM games").frame["n"][0] == game_count


def test_what_a_query_creates_is_gone_after_it(lake):
    con = console_connection(lake)
    con.execute("CREATE TABLE kept AS SELECT 1 AS a")
    con.execute("CREATE OR REPLACE VIEW games AS SELECT 1 AS game_id")
    con.close()
    with pytest.raises(QueryError, match="kept"):
        run_console(lake, "SELECT * FROM kept")
    assert run_console(lake, "SELECT count(*) AS n FROM games").frame["n"][0] > 1


def test_a_missing_lake_file_is_named(lake, tmp_path):
    shutil.copytree(lake.root, tmp_path / "lake")
    copy = Lake(tmp_path / "lake")
    missing = copy.files("seats")[0]
    missing.unlink()
    with pytest.raises(LakeError, match="missing") as refused:
        run_console(copy, "SELECT count(*) FROM games")
    assert refused.value.file == missing


def _kingdoms(*args: str, cwd: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "data.cli", "query", *args]
    root = Path(__file__).resolve().parents[2]
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env, check=False)


# a COPY in a CTE onto a batch's file and onto lake.json, one inside query(), EXPORT DATABASE
THROUGH_THE_COMMAND = [HOSTILE[0], HOSTILE[1], HOSTILE[5], HOSTILE[11]]


@pytest.mark.parametrize("statement, refused", THROUGH_THE_COMMAND)
def test_kingdoms_query_refuses_hostile_statements(lake, places, statement, refused):
    before = _tree(lake.root)
    done = _kingdoms(statement.format(**places), "--lake", places["lake"], cwd=places["cwd"])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("query: ") and done.stderr.count("\n") == 1, done.stderr
    _assert_untouched(lake, before, places)


@pytest.mark.parametrize(
    "query, views",
    [
        ("SELECT count(*) AS n FROM {view}", ("games", "seats", "moves", "epoch_scores")),
        ("SELECT count(*) AS n FROM {view}", ("castles", "tile_impacts", "tile_placements")),
        ("SELECT count(*) AS n FROM {view}", ("cells", "agg_games", "agg_castles")),
        ("SELECT sum(hash(t)) AS n FROM {view} t", ("games", "seats", "castles", "tile_impacts")),
    ],
)
def test_console_views_hold_what_the_lake_views_hold(lake, con, query, views):
    sealed = console_connection(lake)
    for view in views:
        assert (
            sealed.execute(f"DESCRIBE {view}").fetchall()
            == con.execute(f"DESCRIBE {view}").fetchall()
        )
        sql = query.format(view=view)
        assert run_console(lake, sql).frame["n"][0] == execute(con, sql)["n"][0], view
    sealed.close()


@pytest.mark.parametrize(
    "rows, truncated", [(ROW_CAP - 1, False), (ROW_CAP, False), (ROW_CAP + 5, True)]
)
def test_console_returns_at_most_the_row_cap(lake, rows, truncated):
    result = run_console(lake, f"SELECT * FROM range({rows}) ORDER BY range DESC")
    assert result.frame.height == min(rows, ROW_CAP)
    assert result.truncated is truncated
    assert result.frame["range"][0] == rows - 1, "the query's own order is kept"


def test_kingdoms_query_says_it_truncated(lake, places):
    done = _kingdoms(
        f"SELECT * FROM range({ROW_CAP + 1})",
        "--format",
        "csv",
        "--lake",
        places["lake"],
        cwd=places["cwd"],
    )
    assert done.returncode == 0
    assert done.stdout.count("\n") == ROW_CAP + 1, "a header and the capped rows"
    assert "… truncated" in done.stderr


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM range(1000000000000)",
        "SELECT repeat('x', 100000) AS s FROM range(1000000)",  # 100 GB of output
    ],
)
def test_slow_query_and_huge_output_are_stopped_by_the_time_limit(lake, sql):
    started = time.monotonic()
    with pytest.raises(QueryError, match="took longer than 0.5 s"):
        run_console(lake, sql, timeout=0.5)
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("written", [ConsoleResult.csv, ConsoleResult.json, ConsoleResult.table])
def test_time_limit_covers_writing_the_output(written):
    late = ConsoleResult(pl.DataFrame({"a": [1, 2]}), False, time.monotonic() - 0.01, 1.0)
    with pytest.raises(QueryError, match="took longer than 1 s"):
        written(late)


LISTS = (
    "SELECT game_id, deals, tags, [1, 2] AS pair, [[1], NULL] AS nested, {{'a': 1}} AS point "
    "FROM games WHERE source = 'recorded' ORDER BY game_id LIMIT 3"
)


def test_csv_writes_list_map_and_struct_columns_as_json(lake, places):
    done = _kingdoms(LISTS.format(), "--format", "csv", "--lake", places["lake"], cwd=places["cwd"])
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    expected = json.loads(run_console(lake, LISTS.format()).json())
    assert len(rows) == len(expected) == 3
    for row, want in zip(rows, expected, strict=True):
        assert int(row["game_id"]) == want["game_id"]
        for column in ("deals", "tags", "pair", "nested", "point"):
            assert json.loads(row[column]) == want[column], column
    assert json.loads(rows[0]["pair"]) == [1, 2] and json.loads(rows[0]["point"]) == {"a": 1}


def test_csv_of_a_named_query_writes_its_lists_as_json(lake, con, places):
    game_id = execute(con, "SELECT min(game_id) AS g FROM games")["g"][0]
    done = _kingdoms(
        "game_record",
        "--param",
        f"game_id={game_id}",
        "--format",
        "csv",
        "--lake",
        places["lake"],
        cwd=places["cwd"],
    )
    assert done.returncode == 0, done.stderr
    [row] = list(csv.DictReader(io.StringIO(done.stdout)))
    record = execute(con, "game_record", {"game_id": game_id}).row(0, named=True)
    assert len(record["actions"]) > 10
    assert json.loads(row["actions"]) == record["actions"]
    assert json.loads(row["seat_players"]) == record["seat_players"]


def test_schema_lists_every_view_with_types_and_meanings(lake, con):
    schema = console_schema(lake)
    views = list(dict.fromkeys(schema["view"]))
    assert views[: len(COLUMN_MEANINGS)] == list(COLUMN_MEANINGS)
    assert all(view.startswith("agg_") for view in views[len(COLUMN_MEANINGS) :])
    for view in COLUMN_MEANINGS:
        shown = schema.filter(pl.col("view") == view)
        described = con.execute(f"DESCRIBE {view}").fetchall()
        assert shown["column"].to_list() == [row[0] for row in described]
        assert shown["type"].to_list() == [row[1] for row in described]
        assert shown["meaning"].null_count() == 0, f"a meaning for every column of {view}"
