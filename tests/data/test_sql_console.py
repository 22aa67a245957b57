"""The SQL console cannot write or change anything, whatever the SQL: hostile statements on the
seeded lake, with every file of the lake hashed before and after and the working folder listed;
the caps on rows, bytes, memory, time and the SQL's length; what it refuses to show; DuckDB's
hints in its errors; CSV of list columns, and the schema it shows."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import pickle
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import polars as pl
import pytest

from data.console import (
    RESULT_BYTES,
    ROW_CAP,
    SANDBOX,
    SQL_LIMIT,
    ConsoleResult,
    console_connection,
    console_schema,
    console_tables,
    run_console,
)
from data.console_sandbox import MEMORY_LIMIT, Job
from data.lake import MANIFEST, Lake, LakeError
from data.reader import QueryError, connect, execute
from data.view_columns import COLUMN_MEANINGS

# (statement, whether the console refuses it): {part} is a committed Parquet file of the lake,
# {lake} its folder, {out} a folder outside it, {cwd} the working folder (DuckDB's default
# temp folder is its `.tmp/`; an in-memory database may write `:memory:` and its `.wal`,
# `.wal.checkpoint` and `.wal.recovery` there with external access off).
HOSTILE = [
    ("EXPLAIN ANALYZE COPY (SELECT 1) TO ':memory:.wal'", True),
    ("EXPLAIN ANALYZE COPY (SELECT * FROM moves) TO '{cwd}/:memory:.wal.checkpoint'", True),
    ("WITH x AS (COPY (SELECT 1 AS a) TO ':memory:') SELECT * FROM x", True),
    ("WITH x AS (COPY (SELECT * FROM moves) TO ':memory:.wal.recovery') SELECT * FROM x", True),
    ("SELECT * FROM query('EXPLAIN ANALYZE COPY (SELECT 1) TO '':memory:.wal''')", True),
    ("SELECT * FROM query('WITH x AS (COPY (SELECT 1) TO '':memory:.wal'') FROM x')", True),
    ("SELECT * FROM read_text(':memory:*')", True),
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
    assert list(Path(places["cwd"]).iterdir()) == [], "nothing in the working folder"


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


# EXPLAIN ANALYZE of a COPY to `:memory:.wal`, a COPY in a CTE to `:memory:.wal.recovery`, one
# in query(), a COPY in a CTE onto a batch's file and onto lake.json, EXPORT DATABASE
THROUGH_THE_COMMAND = [HOSTILE[i] for i in (0, 3, 5, 7, 8, 18)]


@pytest.mark.parametrize("statement, refused", THROUGH_THE_COMMAND)
def test_kingdoms_query_refuses_hostile_statements(lake, places, statement, refused):
    before = _tree(lake.root)
    done = _kingdoms(statement.format(**places), "--lake", places["lake"], cwd=places["cwd"])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("query: ") and "Traceback" not in done.stderr, done.stderr
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


@pytest.mark.parametrize(
    "sql, kind",
    [
        ("EXPLAIN SELECT count(*) FROM games", "EXPLAIN"),
        ("EXPLAIN ANALYZE SELECT count(*) FROM games", "EXPLAIN"),
        ("CALL pragma_version()", "CALL"),
        ("PRAGMA version", "PRAGMA"),
        ("PIVOT games ON players USING count(*)", "MULTI"),
    ],
)
def test_only_a_plain_query_runs(lake, sql, kind):
    with pytest.raises(QueryError) as refused:
        run_console(lake, sql)
    assert str(refused.value) == f"only a plain query (SELECT …) runs here, not {kind}"


@pytest.mark.parametrize(
    "sql", ["FROM games SELECT count(*)", "DESCRIBE moves", "SUMMARIZE castles", "VALUES (1, 2)"]
)
def test_every_form_of_a_query_runs(lake, sql):
    assert run_console(lake, sql).frame.height > 0


def test_sql_past_its_cap_is_refused_before_it_runs(lake):
    longest = "SELECT 1 AS a" + " " * (SQL_LIMIT - len("SELECT 1 AS a"))
    assert run_console(lake, longest).frame["a"].to_list() == [1]
    with pytest.raises(QueryError, match=f"at most {SQL_LIMIT:,}"):
        run_console(lake, longest + " ")
    # the battery's 20,000 UNION ALLs, which planned for minutes
    with pytest.raises(QueryError, match="characters long"):
        run_console(lake, " UNION ALL ".join(["SELECT 1"] * 20_000))


def test_result_past_its_byte_cap_is_refused(lake):
    """100,000 rows of 500-element lists are 400 MB: under the row cap, over the byte cap."""
    with pytest.raises(QueryError) as refused:
        run_console(lake, "SELECT range(500) AS l FROM range(100000)")
    assert str(refused.value).startswith(f"the result is larger than {RESULT_BYTES >> 20} MB")


def test_duckdb_memory_is_capped(lake):
    """A 300-million-element list needs 2.4 GB, past the sandbox's DuckDB memory limit."""
    with pytest.raises(QueryError, match="Out of Memory Error"):
        run_console(lake, "SELECT len(list(range)) AS n FROM range(300000000)")
    assert MEMORY_LIMIT < 300_000_000 * 8


# 30 CTEs, each twice the one before, that DuckDB must inline: it plans for minutes, holding
# Python's lock, and its interrupt does not reach a query being planned
PLANNED_FOR_MINUTES = (
    "WITH a0 AS NOT MATERIALIZED (SELECT 1 AS x), "
    + ", ".join(
        f"a{i} AS NOT MATERIALIZED (SELECT * FROM a{i - 1} UNION ALL SELECT * FROM a{i - 1})"
        for i in range(1, 30)
    )
    + " SELECT count(*) FROM a29"
)


def test_time_limit_holds_while_duckdb_plans(lake):
    started = time.monotonic()
    with pytest.raises(QueryError, match="took longer than 3 s"):
        run_console(lake, PLANNED_FOR_MINUTES, timeout=3)
    assert time.monotonic() - started < 4.5


def test_sandbox_ends_itself_when_its_time_is_up(lake, places):
    """With no parent to kill it, the sandbox's own alarm ends it."""
    job = Job(console_tables(lake), PLANNED_FOR_MINUTES, None, ROW_CAP, RESULT_BYTES, 1.0)
    started = time.monotonic()
    done = subprocess.run(SANDBOX, input=pickle.dumps(job), capture_output=True, timeout=60)
    assert done.returncode == -signal.SIGALRM
    assert time.monotonic() - started < 10


SHOWN = (
    "SELECT 170141183460469231731687303715884105727::HUGEINT AS huge, MAP {'a': 1} AS map, "
    "{'a': [1, NULL]} AS struct, [1, 2]::INTEGER[2] AS array, TIME '12:00' AS time, "
    "TIMESTAMPTZ '2020-01-01 00:00:00+00' AS at, 'a'::ENUM('a', 'b') AS enum, "
    "1.5::DECIMAL(38, 10) AS decimal, uuid() AS id, '{}'::JSON AS json, NULL AS nothing"
)


def test_every_type_it_shows_is_written_as_a_table_csv_and_json(lake):
    result = run_console(lake, SHOWN)
    assert "huge" in result.table()
    [row] = list(csv.DictReader(io.StringIO(result.csv())))
    assert row["huge"] == str(2**127 - 1) and json.loads(row["struct"]) == {"a": [1, None]}
    assert json.loads(result.json())[0]["array"] == [1, 2]


@pytest.mark.parametrize(
    "value, kind",
    [
        ("INTERVAL 3 DAY", "INTERVAL"),
        ("[INTERVAL 3 DAY]", "INTERVAL[]"),
        ("union_value(k := 1)", "UNION(k INTEGER)"),
        ("'\\xAA'::BLOB", "BLOB"),
        ("{'a': '0101'::BIT}", "STRUCT(a BIT)"),
        ("1::BIGNUM", "BIGNUM"),
    ],
)
def test_a_type_it_cannot_show_is_a_one_line_refusal(lake, value, kind):
    with pytest.raises(QueryError) as refused:
        run_console(lake, f"SELECT {value} AS c")
    assert str(refused.value) == (
        f'column "c" is of type {kind}, which the console cannot show: '
        'cast it to text ("c"::VARCHAR)'
    )


def _hint_and_caret(message: str) -> tuple[str, int, int]:
    """DuckDB's line of candidates, and where the query's mistake and the caret under it are."""
    lines = message.splitlines()
    echoed = lines.index("LINE 1: SELECT cel FROM castles")
    return lines[1], lines[echoed].index("cel "), lines[echoed + 1].index("^")


def test_errors_keep_duckdbs_hints_and_caret(lake, places):
    with pytest.raises(QueryError) as refused:
        run_console(lake, "SELECT cel FROM castles")
    hint, mistake, caret = _hint_and_caret(str(refused.value))
    assert hint.startswith('Candidate bindings: "cell"') and caret == mistake

    done = _kingdoms("SELECT cel FROM castles", "--lake", places["lake"], cwd=places["cwd"])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("query: Binder Error: Referenced column")
    hint, mistake, caret = _hint_and_caret(done.stderr)
    assert hint.startswith('Candidate bindings: "cell"') and caret == mistake
