"""The apprentice: legal moves only, the shipped weights, refused weights files, and a fit that
learns what its decisions show."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.agents import make_agent, play_game
from engine.agents.strong import Searcher
from engine.kernel import search
from engine.kernel.apprentice import (
    FEATURES,
    PLAYER_COUNTS,
    VALUES,
    WEIGHTS,
    WeightsError,
    load_weights,
    row_length,
    save_weights,
    shipped_model,
)
from engine.kernel.batch import policy_games
from engine.kernel.replay import replay_games
from engine.learning import Decisions, agreement, fit_path, starting_model
from engine.rules import RuleSet
from engine.state import Game
from tests.engine.test_agents import _swap_hidden_tile, _turn_position


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_games_of_the_apprentice_replay_as_legal(players: int) -> None:
    """Every action of its games is one the rules accept (replaying refuses any other) and the
    replay ends with the gold the games ended with."""
    seats = ["apprentice", "heuristic", "greedy", "random"][:players]
    played = policy_games(players, RuleSet(), range(40), seats)
    replayed = replay_games(
        [(players, RuleSet())], np.zeros(40, np.int64), played.actions, played.offsets
    )
    epochs = replayed.gains.shape[1]
    assert np.array_equal(replayed.gains, played.gains[:, :epochs])
    assert np.array_equal(replayed.epochs, played.epochs)


def test_the_agent_plays_a_whole_game_with_the_engine() -> None:
    agents = [make_agent("apprentice", 1), make_agent("heuristic", 2), make_agent("apprentice", 3)]
    state = play_game(Game(3), agents, seed=5)
    assert state.is_terminal()


def test_the_shipped_weights_are_the_ones_played() -> None:
    """The file in the package loads, has a row for every player count, and is what games use."""
    weights = load_weights(WEIGHTS)
    assert weights.model.shape == (len(PLAYER_COUNTS), row_length(weights.hidden))
    assert np.array_equal(shipped_model(), weights.model)
    assert weights.made["teacher"] and weights.made["commit"]


def _write(path: Path, header: dict) -> Path:
    path.write_text(json.dumps(header), encoding="utf-8")
    return path


def _header(hidden: int = 2) -> dict:
    row = [0.0] * row_length(hidden)
    return {
        "format": "kingdoms-apprentice",
        "version": 1,
        "features": FEATURES,
        "hidden": hidden,
        "weights": {str(p): row for p in PLAYER_COUNTS},
        "made": {},
    }


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda h: h.update(version=99), "made for version 99"),
        (lambda h: h.update(features=FEATURES + 1), f"with {FEATURES + 1} features"),
        (lambda h: h["weights"].update({"3": [0.0] * 5}), "for 3 players are not"),
        (lambda h: h["weights"].pop("4"), "for 4 players are not"),
        (lambda h: h["weights"]["2"].__setitem__(0, "x"), "for 2 players are not numbers"),
        (lambda h: h.update(format="other"), "is not a weights file"),
    ],
)
def test_a_mismatched_weights_file_is_refused_in_one_line(tmp_path: Path, change, says) -> None:
    header = _header()
    change(header)
    path = _write(tmp_path / "weights.json", header)
    with pytest.raises(WeightsError) as refused:
        load_weights(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: ") and says in message and "\n" not in message


def test_a_damaged_weights_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "weights.json"
    path.write_bytes(json.dumps(_header()).encode()[:-40])
    with pytest.raises(WeightsError, match="is not a weights file"):
        load_weights(path)
    with pytest.raises(WeightsError, match="cannot be read"):
        load_weights(tmp_path / "missing.json")


def test_weights_round_trip(tmp_path: Path) -> None:
    model = np.random.default_rng(3).normal(size=(3, row_length(4)))
    save_weights(tmp_path / "w.json", model, 4, {"teacher": "strong"})
    loaded = load_weights(tmp_path / "w.json")
    assert loaded.hidden == 4 and np.allclose(loaded.model, model, atol=1e-6)
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize("hidden", [0, 8])
def test_a_fit_learns_the_feature_the_choices_follow(hidden: int) -> None:
    """Decisions whose choice is always the candidate highest in one feature, the heuristic's
    values (which the starting model follows) alike for all: the fitted model agrees with
    nearly all of them, where the starting model picks among equals (about a fifth)."""
    rng = np.random.default_rng(1)
    sizes = rng.integers(2, 9, size=3000)
    candidates = np.concatenate([[0], np.cumsum(sizes)])
    features = rng.normal(size=(candidates[-1], FEATURES)).astype(np.float32)
    features[:, VALUES : VALUES + 2] = 0.0
    bounds = zip(candidates[:-1], candidates[1:], strict=True)
    chosen = np.array([start + np.argmax(features[start:stop, 5]) for start, stop in bounds])
    decisions = Decisions(features, candidates, chosen)
    held_out = decisions.part(2500, 3000)
    assert agreement(starting_model(hidden, seed=2), hidden, held_out) < 0.3
    row = fit_path(decisions.part(0, 2500), hidden, passes=10, seed=2, checkpoints=1)[-1]
    assert agreement(row, hidden, held_out) > 0.9


def test_a_fits_path_starts_at_the_heuristics_choice_and_ends_where_the_fit_does() -> None:
    rng = np.random.default_rng(3)
    sizes = rng.integers(2, 6, size=600)
    candidates = np.concatenate([[0], np.cumsum(sizes)])
    features = rng.normal(size=(candidates[-1], FEATURES)).astype(np.float32)
    chosen = candidates[:-1] + rng.integers(0, 2, size=600)
    decisions = Decisions(features, candidates, chosen)
    path = fit_path(decisions, 0, passes=2, seed=4, checkpoints=4)
    assert len(path) == 5
    assert np.array_equal(path[0], starting_model(0, seed=4))
    assert np.array_equal(path[-1], fit_path(decisions, 0, passes=2, seed=4, checkpoints=1)[-1])
    assert all(not np.array_equal(a, b) for a, b in zip(path, path[1:], strict=False))


def test_a_guided_search_opens_the_apprentices_choices_and_plays_legally() -> None:
    """With a PRIOR weight the search orders its root by the apprentice and plays a legal
    move; its choice does not change when another seat's hidden starting tile is swapped."""
    settings = list(search.DEFAULT_SETTINGS)
    settings[search.PRIOR] = 1.0
    for seed in range(3):
        state = _turn_position(seed)
        seat = state.current_player()
        legal = state.legal_actions()
        guided = Searcher(60, settings).search(state.observation(seat), seed)
        assert set(guided.candidates) == set(legal)
        assert guided.best_action in legal
        again = Searcher(60, settings).search(
            _swap_hidden_tile(state, seat).observation(seat), seed
        )
        assert again.best_action == guided.best_action and again.visits == guided.visits
