"""Expert Iteration's labels: the strong search's choice at every decision of the apprentice's
own games, searched once and kept in a real lake, and the decisions they describe."""

from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
import pytest

from data.apprentice import game_decisions_of, own_games
from data.apprentice_labels import FOLDER, NO_CHOICE, SEARCH, label_games, load_labels
from data.lake import Lake
from data.simulate import Plan, simulate
from engine.rules import RuleSet
from engine.state import Game

ITERATIONS = 30  # a small search: the labels' bookkeeping, not their strength, is tested


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Lake, object, dict]:
    """Two games of the apprentice at every seat (2 and 3 players), labelled."""
    lake = Lake(tmp_path_factory.mktemp("labels") / "lake")
    simulate(lake, Plan(2, players=(2, 3), agents=("apprentice",), seed=4), 1, False)
    games = own_games(lake, 2, seed=4)
    return lake, games, label_games(lake, games, ITERATIONS, seed=1, progress=False)


def test_every_decision_and_nothing_else_is_labelled_with_a_legal_action(labelled) -> None:
    _, games, labels = labelled
    assert len(games) == 2 and set(labels) == set(games["game_id"].to_list())
    for game_id, players, actions in games.select("game_id", "players", "actions").iter_rows():
        state = Game(players, RuleSet()).new_initial_state()
        found = labels[game_id]
        assert len(found) == len(actions)
        for index, action in enumerate(actions):
            chooses = not state.is_chance_node() and len(state.legal_actions()) > 1
            if chooses:
                assert found[index] in state.legal_actions()
            else:
                assert found[index] == NO_CHOICE
            state.apply_action(action)


def test_a_rerun_searches_nothing_again(labelled) -> None:
    lake, games, labels = labelled
    files = sorted((lake.root / FOLDER).rglob("*.parquet"))
    assert len(files) == 2
    written = [path.stat().st_mtime_ns for path in files]
    again = label_games(lake, games, ITERATIONS, seed=1, progress=False)
    assert [path.stat().st_mtime_ns for path in files] == written
    assert all(np.array_equal(again[game_id], labels[game_id]) for game_id in labels)


def test_labels_made_by_another_search_are_searched_again(labelled) -> None:
    lake, games, labels = labelled
    game_id = next(iter(labels))
    path = next((lake.root / FOLDER / f"game_id={game_id}").glob("*.parquet"))
    old = pq.read_table(path)
    pq.write_table(old.replace_schema_metadata({SEARCH: b"0"}), path)
    assert load_labels(lake, game_id, ITERATIONS, seed=1) is None
    again = label_games(lake, games, ITERATIONS, seed=1, progress=False)
    assert np.array_equal(again[game_id], labels[game_id])
    assert np.array_equal(load_labels(lake, game_id, ITERATIONS, seed=1), labels[game_id])


def test_the_decisions_are_taught_the_labels_not_the_moves_played(labelled) -> None:
    """Where the search chose otherwise than the apprentice, the decision's chosen candidate is
    the search's; by the moves played, it is the apprentice's."""
    _, games, labels = labelled
    by_labels = game_decisions_of(games, labels)
    by_moves = game_decisions_of(games)
    for players in (2, 3):
        taught, played = by_labels[players], by_moves[players]
        assert len(taught) == len(played) > 0
        assert np.array_equal(taught.candidates, played.candidates)
        differ = taught.chosen != played.chosen
        assert 0 < differ.sum() < len(taught)  # a 30-iteration search often, not always, differs


def test_the_games_are_only_the_plans(labelled) -> None:
    lake, _, _ = labelled
    assert len(own_games(lake, 1, seed=4)) == 1
    assert len(own_games(lake, 2, seed=5)) == 0
