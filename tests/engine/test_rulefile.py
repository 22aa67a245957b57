"""Rule sets as files: the shipped ones are the editions and variants, a custom one is played,
scored and replayed by its own rules, and a bad one is refused at its key's line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from data.cli import main
from engine import pieces
from engine.kernel.batch import policy_games, random_games
from engine.record import record_from_state, write_record
from engine.rulefile import RuleFileError, shipped
from engine.rules import (
    EDITIONS,
    PLAYER_COUNTS,
    VARIANTS,
    load_rules,
    rule_set,
    rule_text,
    rules_from_text,
    rules_hash,
)
from engine.state import Game

SHIPPED = Path(__file__).parents[2] / "engine" / "rulesets"
# sha256 over every edition, variant and player count of 40 seeded random and 40 heuristic kernel
# games (actions, then gains), computed the same way with the rules still in code (3ce66f4)
GAMES_BEFORE_FILES = "38227c0ee28517c0a4724e662ab45e0ac806e0382ca5f2b5c9fa1419974aa2c4"

CUSTOM = """\
name = "Six by six, four epochs, no gold mine"
base = "kingdoms-2011"
rows = 6
columns = 6
epochs = 4

[tiles]
GM = 0
"""


@pytest.fixture
def custom(tmp_path: Path) -> Path:
    path = tmp_path / "six.toml"
    path.write_text(CUSTOM)
    return path


def test_every_edition_and_variant_has_a_file_that_is_it() -> None:
    assert (set(shipped()), set(shipped("variants"))) == (set(EDITIONS), set(VARIANTS))
    files = {load_rules(path) for path in SHIPPED.rglob("*.toml")}
    assert {rule_set(edition) for edition in EDITIONS} <= files
    assert {rule_set(variants=variant) for variant in VARIANTS} <= files


def test_the_shipped_rule_sets_give_the_same_games_as_before() -> None:
    total = hashlib.sha256()
    for edition in EDITIONS:
        for variant in ("", *VARIANTS):
            rules = rule_set(edition, variant)
            for players in PLAYER_COUNTS:
                digest = hashlib.sha256()
                seeds = np.arange(40)
                heuristic = policy_games(players, rules, seeds, ["heuristic"] * players)
                for played in (random_games(players, rules, seeds), heuristic):
                    digest.update(played.actions.tobytes())
                    digest.update(played.gains.tobytes())
                total.update(digest.digest())
    assert total.hexdigest() == GAMES_BEFORE_FILES


def test_a_custom_rule_set_is_played_by_its_rules(custom: Path) -> None:
    rules = load_rules(custom)
    assert (rules.cells, rules.epochs, rules.name) == (
        36,
        4,
        "Six by six, four epochs, no gold mine",
    )
    for players in PLAYER_COUNTS:
        played = policy_games(players, rules, np.arange(10), ["heuristic"] * players)
        assert (played.epochs == 4).all()
        for game in range(10):
            state = Game(players, rules).new_initial_state()
            for action in played.actions[played.offsets[game] : played.offsets[game + 1]]:
                state.apply_action(int(action))
                assert pieces.GOLD_MINE not in state.board
            assert state.is_terminal() and len(state.board) == 36


def test_a_custom_rule_set_is_scored_replayed_and_reviewed_from_the_command_line(
    custom: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    rules = load_rules(custom)
    played = random_games(3, rules, np.arange(1))
    state = Game(3, rules).new_initial_state()
    for action in played.actions[played.offsets[0] : played.offsets[1]]:
        state.apply_action(int(action))
    record = tmp_path / "six.kgn"
    record.write_text(write_record(record_from_state(state, {})))
    assert main(["replay", "--json", "--rules", str(custom), str(record)]) == 0
    assert json.loads(capsys.readouterr().out)["gold"] == dict(zip("ABC", state.gold, strict=True))
    assert main(["replay", str(record)]) == 2
    assert "give its rule-set file (--rules on the command line)" in capsys.readouterr().err
    assert main(["review", "--json", "--budget", "8", "--rules", str(custom), str(record)]) == 0
    reviewed = json.loads(capsys.readouterr().out)["moves"]
    assert {move["epoch"] for move in reviewed} == {1, 2, 3, 4}
    six_by_six = " / ".join(["A1 +5 . . . ."] + [". . . . . ."] * 5)
    assert main(["score", "--json", "--rules", str(custom), six_by_six]) == 0
    assert json.loads(capsys.readouterr().out)["gold"] == {"A": 5}
    assert main(["score", "--rules", str(custom), " / ".join(["A1 +5 . . . ."] * 5)]) == 2


def test_the_gold_mine_multiplies_by_the_rule_sets_factor(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """The rules' example 4 (spec/rules.md): A1, +5 and a gold mine in a row pay A 10, the +5
    doubled; a factor of 3 triples it, on the board and in the heuristic's view of a move."""
    path = tmp_path / "tripled.toml"
    path.write_text('base = "kingdoms-2011"\n[gold_mine]\nfactor = 3\n')
    row = " / ".join(["A1 +5 GM . . ."] + [". . . . . ."] * 4)
    assert main(["score", "--json", row]) == 0
    assert json.loads(capsys.readouterr().out)["gold"] == {"A": 10}
    assert main(["score", "--json", "--rules", str(path), row]) == 0
    assert json.loads(capsys.readouterr().out)["gold"] == {"A": 15}
    tripled = load_rules(path)
    played = policy_games(2, tripled, np.arange(20), ["heuristic"] * 2)
    doubled = policy_games(2, rule_set(), np.arange(20), ["heuristic"] * 2)
    assert not np.array_equal(played.gains, doubled.gains)


@pytest.mark.parametrize("path", sorted(SHIPPED.rglob("*.toml")), ids=lambda path: path.stem)
def test_every_shipped_rule_set_reads_back_from_its_canonical_text(path: Path) -> None:
    rules = load_rules(path)
    text = rule_text(rules)
    again = rules_from_text(text)
    assert (again, again.name, rule_text(again)) == (rules, rules.name, text)


def test_the_hash_is_the_rules_not_the_way_the_file_is_written(custom: Path) -> None:
    bare = "\n".join(line for line in CUSTOM.splitlines() if line.strip())
    commented = CUSTOM.replace("epochs = 4", "epochs = 4  # one more than the editions")
    renamed = rules_from_text(commented.replace("no gold mine", "renamed"))
    hashes = {rules_hash(rules_from_text(text)) for text in (bare, commented)}
    assert hashes == {rules_hash(load_rules(custom))} == {rules_hash(renamed)}
    assert len(hashes.pop()) == 12


def test_a_changed_tile_count_changes_the_hash() -> None:
    more = rules_from_text('base = "kingdoms-2011"\n[tiles]\nMT = 3\n')
    assert rules_hash(more) != rules_hash(rule_set())
    assert len({rules_hash(rule_set(e, v)) for e in EDITIONS for v in ("", *VARIANTS)}) == 16


def test_a_text_error_points_at_its_origin() -> None:
    with pytest.raises(RuleFileError, match=r"^sandbox:2:1: colums: unknown key"):
        rules_from_text('base = "kingdoms-2011"\ncolums = 6\n', "sandbox")


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ('base = "kingdoms-2011"\ncolums = 6\n', "2:1", "colums: unknown key"),
        ('base = "kingdoms-2011"\n\n[tiles]\n"+1" = -2\n', "4:1", "tiles.+1: -2 is not a whole"),
        ('base = "kingdoms-2011"\n[tiles]\nXX = 1\n', "3:1", "tiles.XX: unknown tile"),
        ('base = "kingdoms-2011"\n[castles]\n  3 = [1, 2]\n', "3:3", "castles.3: give the castles"),
        ('base = "kingdoms-2011"\nepochs = true\n', "2:1", "epochs: true is not a whole number"),
        ('base = "kingdoms-1999"\n', "1:1", "base: 'kingdoms-1999' is not one of"),
        ("rows = 6\n", "1:1", "say which edition the rules start from"),
        ('base = "kingdoms-2011"\nrows = [\n', "2:", "Invalid value"),
        (
            'base = "kingdoms-2011"\nrows = 6\ncolumns = 6\n[castles]\n2 = [1, 0, 0, 0]\n',
            "2:1",
            "rows: the tiles and the castles of 2 players (25 pieces) cannot fill the 6 × 6 board",
        ),
        ('base = "kingdoms-2011"\nrows = 9\n', "2:1", "rows: 9 is not a whole number from 3 to 8"),
        ('base = "kingdoms-2011"\n[gold_mine]\nfactor = 11\n', "3:1", "11 is not a whole number"),
        ('base = "kingdoms-2011"\n[gold_mine]\nfacter = 3\n', "3:1", "gold_mine.facter: unknown"),
        ('base = "kingdoms-2011"\nlater_first = "poorest"\n', "2:1", "'poorest' is not one of"),
    ],
)
def test_a_bad_rule_file_is_refused_in_one_line_at_its_key(
    tmp_path: Path, capsys: pytest.CaptureFixture, text: str, where: str, message: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["tournament", "--rules", str(path), "--agents", "random,random"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"{path}:{where}") and message in line
