"""One way into the lake: simulate, import and the Record page all store a game as the same
rows, with its actions, and a record rebuilt from those actions is the game again."""

from __future__ import annotations

import json

import polars as pl
import pytest

from dashboard.record_data import import_texts
from data.cli import main
from data.importer import SOURCE as RECORDED
from data.importer import export_record, import_records, played_from_record, played_from_text
from data.lake import MANIFEST, Lake, LakeVersionError
from data.played import PlayedGames
from data.reader import connect, execute
from data.schema import SCHEMA_VERSION
from data.simulate import SOURCE as SIMULATED
from data.simulate import Plan, plan_games, simulate
from data.store import store_games
from tests.lakes import RECORDS, one_by_one

PLAN = Plan(6, players=(2, 3, 4), seed=21)  # one batch, or one per game on two workers
# Every stored column but when and where the batch was written; and a batch's aggregate.
ROWS = {
    "games": "SELECT * EXCLUDE (created, batch_id) FROM games ORDER BY game_id",
    "seats": "SELECT * FROM seats ORDER BY game_id, seat",
    "moves": "SELECT * EXCLUDE (batch_id) FROM _moves ORDER BY game_id, ply",
    "epoch_scores": "SELECT * FROM epoch_scores ORDER BY game_id, epoch, seat",
    "agg_seats": "SELECT * EXCLUDE (created, batch_id) FROM agg_seats ORDER BY ALL",
}
STORED = ("games", "seats", "moves", "epoch_scores")


def _rows(lake: Lake) -> dict[str, pl.DataFrame]:
    con = connect(lake)
    return {table: execute(con, sql) for table, sql in ROWS.items()}


def _assert_same_rows(lake: Lake, other: Lake, tables=tuple(ROWS)) -> None:
    mine, theirs = _rows(lake), _rows(other)
    for table in tables:
        assert not mine[table].is_empty(), table
        assert mine[table].equals(theirs[table]), table


def test_simulate_serial_forked_and_store_games_store_the_same_rows(tmp_path) -> None:
    serial, forked, direct = (Lake(tmp_path / name) for name in ("serial", "forked", "direct"))
    assert simulate(serial, PLAN, workers=1, progress=False).added == PLAN.games
    assert simulate(forked, PLAN, workers=2, progress=False).added == PLAN.games
    games = PlayedGames.of(one_by_one(plan_games(PLAN, 0, PLAN.games)))  # batched, unbatched
    assert store_games(direct, games, SIMULATED).added == PLAN.games
    _assert_same_rows(serial, direct)
    _assert_same_rows(serial, forked, STORED)  # aggregates per batch: forked makes smaller ones


def test_import_upload_and_store_games_store_a_record_as_the_same_rows(
    tmp_path, monkeypatch
) -> None:
    paths = sorted(RECORDS.glob("*.kgn"))
    imported, uploaded, direct = (Lake(tmp_path / n) for n in ("imported", "uploaded", "direct"))
    assert import_records(imported, paths).added == len(paths)
    monkeypatch.setenv("KINGDOMS_LAKE", str(uploaded.root))
    upload = import_texts([(path.name, path.read_bytes()) for path in paths])
    assert (upload.report.added, upload.report.errors) == (len(paths), [])
    games = PlayedGames.of([played_from_record(path) for path in paths])
    assert store_games(direct, games, RECORDED).added == len(paths)
    _assert_same_rows(imported, uploaded)
    _assert_same_rows(imported, direct)


def test_an_upload_is_parsed_in_memory_and_a_bad_one_named_where_it_fails(
    tmp_path, monkeypatch
) -> None:
    good = sorted(RECORDS.glob("*.kgn"))[0]
    monkeypatch.setenv("KINGDOMS_LAKE", str(tmp_path / "lake"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "no-temporary-files-here"))  # missing: unusable
    upload = import_texts([("good.kgn", good.read_bytes()), ("bad.kgn", b'[Game "Kingdoms"\n\xff')])
    assert upload.report.added == 1
    assert [name for name, _ in upload.games] == ["good.kgn"]
    assert len(upload.report.errors) == 1
    assert upload.report.errors[0].startswith("bad.kgn:2:1: not UTF-8 text")


def test_stored_actions_are_the_games_and_rebuild_its_record(tmp_path) -> None:
    lake = Lake(tmp_path)
    played = one_by_one(plan_games(PLAN, 0, PLAN.games))
    recorded = [played_from_record(path) for path in sorted(RECORDS.glob("*.kgn"))]
    store_games(lake, PlayedGames.of(played), SIMULATED)
    store_games(lake, PlayedGames.of(recorded), RECORDED)
    con = connect(lake)
    for game in played + recorded:
        stored = execute(con, "game_record", {"game_id": game.game_id}).row(0, named=True)
        assert stored["actions"] == list(game.actions)
        again = played_from_text(export_record(con, game.game_id))
        assert again.game_id == game.game_id
        assert again.actions == game.actions  # the record replays to the same action bytes
        assert list(again.unseen_starts) == list(game.unseen_starts)


def test_a_lake_written_before_rule_sets_is_refused(tmp_path, capsys) -> None:
    version = SCHEMA_VERSION - 1  # 12: the last schema without the games' rule sets
    (tmp_path / MANIFEST).write_text(
        json.dumps({"schema_version": version, "next_batch": 1, "batches": []})
    )
    with pytest.raises(LakeVersionError, match="keeps every game's rule set"):
        Lake(tmp_path).batches()
    assert main(["query", "SELECT 1", "--lake", str(tmp_path)]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1
    assert said[0].startswith(f"{tmp_path / MANIFEST}: lake schema version {version}")
