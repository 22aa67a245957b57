"""The lake keeps every rule set's games: a rule-set file's games are stored under its hash, its
text is kept once and reads back, and every filtered query can keep only its games."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from data.cli import main
from data.importer import export_record, import_records
from data.lake import Lake
from data.played import game_id
from data.reader import connect, execute
from engine import pieces
from engine.rules import load_rules, rule_set, rule_text, rules_from_text, rules_hash

SIX_BY_SIX = """\
# A designer's rule set: a bigger board, one more epoch, no gold mine.
name = "Six by six, four epochs, no gold mine"
base = "kingdoms-2011"
rows = 6
columns = 6
epochs = 4

[tiles]
GM = 0  # the gold mine left out
"""


@pytest.fixture(scope="module")
def six_by_six(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rules") / "six.toml"
    path.write_text(SIX_BY_SIX)
    return path


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory, six_by_six: Path) -> Lake:
    """12 games of the six-by-six rule set and 12 of the 2011 edition, from the command line."""
    root = tmp_path_factory.mktemp("lake")
    for rules in (["--rules", str(six_by_six)], ["--edition", "kingdoms-2011"]):
        assert main(["simulate", *rules, "--games", "12", "--lake", str(root)]) == 0
    return Lake(root)


def test_a_rule_set_files_games_are_stored_with_its_hash_and_its_text(
    lake: Lake, six_by_six: Path
) -> None:
    rules = load_rules(six_by_six)
    con = connect(lake)
    stored = execute(con, "SELECT rules, count(*) AS games FROM games GROUP BY rules")
    hashes = dict(stored.iter_rows())
    assert hashes == {rules_hash(rules): 12, rules_hash(rule_set()): 12}
    kept = execute(
        con, "SELECT * FROM rule_sets WHERE rules = $rules", {"rules": rules_hash(rules)}
    )
    assert kept["text"].to_list() == [rule_text(rules)]
    assert kept.select("name", "rows", "columns").row(0) == (rules.name, 6, 6)


def test_filtering_on_a_rule_set_keeps_only_its_games(lake: Lake, six_by_six: Path) -> None:
    hashed = rules_hash(load_rules(six_by_six))
    con = connect(lake)
    summary = execute(con, "balance_summary", {"rules": hashed})
    assert summary["games"].sum() == 12
    assert execute(con, "balance_summary")["games"].sum() == 24
    found = execute(con, "game_search", {"rules": hashed, "limit": 50})
    ids = set(execute(con, "SELECT game_id FROM games WHERE rules = $r", {"r": hashed})["game_id"])
    assert set(found["game_id"]) == ids
    cells = execute(con, "cell_occupancy", {"rules": hashed})
    assert cells.height == 36 and cells["games"].max() == 12
    choices = execute(con, "rule_set_choices")
    assert dict(zip(choices["rules"], choices["games"], strict=True)) == {
        hashed: 12,
        rules_hash(rule_set()): 12,
    }


def test_its_games_follow_it_on_the_stored_moves(lake: Lake, six_by_six: Path) -> None:
    hashed = rules_hash(load_rules(six_by_six))
    moves = execute(
        connect(lake),
        "SELECT m.game_id, m.epoch, m.cell, m.piece, m.action FROM moves m "
        "JOIN games g USING (game_id) WHERE g.rules = $rules",
        {"rules": hashed},
    )
    assert pieces.piece_token(pieces.GOLD_MINE) not in set(moves["piece"])
    assert moves["cell"].drop_nulls().n_unique() == 36
    epochs = moves.group_by("game_id").agg(pl.col("epoch").max())
    assert epochs.height == 12 and set(epochs["epoch"]) == {4}


def test_a_stored_game_of_a_rule_set_replays_and_exports_by_its_rules(
    lake: Lake, six_by_six: Path
) -> None:
    con = connect(lake)
    rules = load_rules(six_by_six)
    first = execute(
        con, "SELECT game_id FROM games WHERE rules = $r LIMIT 1", {"r": rules_hash(rules)}
    )
    record = execute(con, "game_record", {"game_id": first[0, 0]}).row(0, named=True)
    moves = execute(con, "game_moves", {"game_id": first[0, 0]})
    stored = iter(record["actions"])  # every turn's action, in order, among the game's actions
    assert all(action in stored for action in moves["action"].to_list())
    assert record["rule_text"] == rule_text(rules)
    text = export_record(con, first[0, 0])
    assert f'[Rules "{rules.name}"]' in text


def test_an_imported_record_of_a_rule_set_keeps_it(
    lake: Lake, six_by_six: Path, tmp_path: Path
) -> None:
    con = connect(lake)
    rules = load_rules(six_by_six)
    first = execute(
        con, "SELECT game_id FROM games WHERE rules = $r LIMIT 1", {"r": rules_hash(rules)}
    )
    path = tmp_path / "six.kgn"
    path.write_text(export_record(con, first[0, 0]))
    other = Lake(tmp_path / "other")
    assert main(["import", "--lake", str(other.root), str(path)]) == 2  # its rules are needed
    assert import_records(other, [path], rules).added == 1
    stored = execute(
        connect(other), "SELECT g.rules, r.text FROM games g JOIN rule_sets r USING (rules)"
    )
    assert stored.rows() == [(rules_hash(rules), rule_text(rules))]


def test_a_rule_set_files_game_has_its_own_id_and_a_shipped_game_keeps_its_id(
    six_by_six: Path,
) -> None:
    actions = bytes(range(10))
    shipped = game_id(rule_set(), 2, actions)
    assert game_id(load_rules(six_by_six), 2, actions) != shipped
    # the shipped edition written out as a file is the shipped edition: the same ids
    assert game_id(rules_from_text(rule_text(rule_set())), 2, actions) == shipped
