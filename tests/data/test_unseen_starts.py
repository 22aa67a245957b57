"""A starting tile recorded as `?` and never placed stays unknown: import, export, import."""

from __future__ import annotations

import pytest

from data.importer import export_record, import_records
from data.lake import Lake
from data.reader import connect, execute
from engine import pieces
from engine.record import parse_record
from tests.lakes import RECORDS

# Epoch 1 of this record starts "A=+3 B=-5 C=-4 D=?", and D never plays its starting tile.
FOUR_PLAYER = RECORDS / "2026-11-16-four-player.kgn"
START_LINE = "start A=+3 B=-5 C=-4 D=?"


def _import(folder, path):
    """Import one record into a new lake: its connection and the game's id and export."""
    lake = Lake(folder)
    assert import_records(lake, [path]).errors == []
    con = connect(lake)
    (game_id,) = execute(con, "SELECT game_id FROM games")["game_id"].to_list()
    return con, game_id, export_record(con, game_id)


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    return _import(tmp_path_factory.mktemp("unseen"), FOUR_PLAYER)


def test_the_example_has_a_start_nobody_saw() -> None:
    assert START_LINE in FOUR_PLAYER.read_text().splitlines()
    assert parse_record(FOUR_PLAYER.read_text()).unseen_starts == [(1, 3)]


def test_the_lake_keeps_which_starts_were_unseen(imported) -> None:
    con, _, _ = imported
    players, deals, unseen = execute(con, "SELECT players, deals, unseen_starts FROM games").row(0)
    assert unseen == [3]  # epoch 1, seat D: position (1 − 1)·4 + 3 of the deals
    assert len(deals) == 3 * players


def test_an_unseen_start_round_trips(imported, tmp_path) -> None:
    _, game_id, exported = imported
    assert START_LINE in exported.splitlines()
    assert parse_record(exported).unseen_starts == [(1, 3)]
    again = tmp_path / "again.kgn"
    again.write_text(exported)
    _, again_id, again_exported = _import(tmp_path / "lake", again)
    assert (again_id, again_exported) == (game_id, exported)


def test_a_record_that_knew_the_unplaced_tile_exports_it(imported, tmp_path) -> None:
    """What was known is kept: with D's tile written out (the one the replay stood in for the
    `?`, so that the game stays legal), the export shows it."""
    con, _, _ = imported
    known = pieces.piece_token(execute(con, "SELECT deals FROM games")["deals"][0][3])
    path = tmp_path / "known.kgn"
    path.write_text(FOUR_PLAYER.read_text().replace("D=?", f"D={known}"))
    _, _, exported = _import(tmp_path / "lake", path)
    assert START_LINE.replace("D=?", f"D={known}") in exported.splitlines()
    assert parse_record(exported).unseen_starts == []
