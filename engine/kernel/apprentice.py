"""The apprentice: a policy learned from the strong search, on the kernel's arrays.

Every legal action is described by a few numbers a seat can see (`action_features`): the
heuristic's and greedy's value of it (relative to the best action's), its kind, how far the
game and the epoch have gone, and for a castle its rank with the wizard and the cells still open
in its lines. A model scores each description (a linear part plus a one-layer tanh network,
`score`); the apprentice plays the best scored action, and the search reads the scores' softmax
as its prior. A model is one row of weights per player count, shipped in apprentice.json
beside this module with the record of how it was made (`load_weights`).
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from engine.kernel.compiled import inline, kernel
from engine.kernel.layout import (
    ACTION_COUNT,
    CASTLE_COUNTS_AT,
    CELLS,
    EMPTY,
    EPOCH,
    EPOCHS,
    PHASE,
    PLACE,
    PLAYERS,
    RANKS,
    TILE_CODES,
    TO_MOVE,
    TURN,
    board_of,
    castles_at,
    first_id,
    gold_at,
)
from engine.kernel.play import (
    CASTLE_1,
    DRAW,
    PASS,
    PLACE_DRAWN,
    START,
    action_block,
    apply_action,
    begin_game,
    legal_actions,
)
from engine.kernel.policies import (
    OPEN,
    action_values_in,
    candidate_rank,
    policy_scratch,
    unseen_by,
)
from engine.kernel.scoring import wizard_cell

KINDS = RANKS + 5  # castle ranks 1-4, the starting tile, the drawn tile, draw, pass, choose
VALUES = 0  # the heuristic's value, the greedy's value: columns 0 and 1
KIND_AT = 2  # one column per kind
KIND_BY_FILL_AT = KIND_AT + KINDS  # the kind times how full the board is
KIND_BY_EPOCH_AT = KIND_BY_FILL_AT + KINDS  # the kind times how far the game is (0 … 1)
VALUES_BY_FILL_AT = KIND_BY_EPOCH_AT + KINDS  # both values times how full the board is
CASTLE_RANK = VALUES_BY_FILL_AT + 2  # a castle's rank with the wizard, / 4
CASTLE_OPEN = CASTLE_RANK + 1  # the cells still empty in a castle's row and column, / cells
LEAD_BY_CASTLE = CASTLE_OPEN + 1  # own gold less the best other seat's (/ 50), for a castle
LEAD_BY_DRAW = LEAD_BY_CASTLE + 1  # the same for a draw
HELD_BY_CASTLE = LEAD_BY_DRAW + 1  # the share of its castles' ranks the seat still holds
HELD_BY_DRAW = HELD_BY_CASTLE + 1
FEATURES = HELD_BY_DRAW + 1
LEAD_SCALE = 50.0  # gold per unit of the lead features
VALUE_SCALE = 10.0  # gold per unit of a value feature

WEIGHTS = Path(__file__).with_name("apprentice.json")
WEIGHTS_FORMAT = "kingdoms-apprentice"
WEIGHTS_VERSION = 1  # raised when the features or the model's layout change
PLAYER_COUNTS = (2, 3, 4)


class Mind(NamedTuple):
    """A model and the arrays valuing a position with it works in, allocated once a batch."""

    model: np.ndarray  # (3, weights) one row per player count, 2 to 4 (`hidden_units`)
    features: np.ndarray  # (actions, FEATURES)
    scores: np.ndarray  # (actions,)
    greedy: np.ndarray  # (actions,) the greedy policy's values


@kernel
def new_mind(rules, model) -> Mind:
    """Fresh arrays for `apprentice_scores` under these rules, with this model."""
    actions = rules[ACTION_COUNT]
    return Mind(
        model,
        np.zeros((actions, FEATURES), dtype=np.float64),
        np.zeros(actions, dtype=np.float64),
        np.zeros(actions, dtype=np.float64),
    )


def row_length(hidden: int) -> int:
    """A model row's length with this hidden layer's width (0: a linear model)."""
    return FEATURES + hidden * (FEATURES + 2)


class WeightsError(ValueError):
    """A weights file that is damaged, or made for other features or another layout."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")


class Weights(NamedTuple):
    """A model and the record of how it was made."""

    model: np.ndarray  # (3, row_length(hidden)): rows for 2, 3 and 4 players
    hidden: int
    made: dict[str, Any]


def load_weights(path: Path = WEIGHTS) -> Weights:
    """Read a weights file; WeightsError names what is wrong with it."""
    try:
        header = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise WeightsError(path, f"cannot be read ({error.strerror or error})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise WeightsError(path, f"is not a weights file ({error})") from None
    if not isinstance(header, dict) or header.get("format") != WEIGHTS_FORMAT:
        raise WeightsError(path, f"is not a weights file (no format '{WEIGHTS_FORMAT}')")
    if header.get("version") != WEIGHTS_VERSION or header.get("features") != FEATURES:
        raise WeightsError(
            path,
            f"made for version {header.get('version')} with {header.get('features')} features; "
            f"this engine reads version {WEIGHTS_VERSION} with {FEATURES}: train again "
            "(kingdoms apprentice train)",
        )
    hidden = header.get("hidden")
    rows = header.get("weights")
    if not isinstance(hidden, int) or hidden < 0 or not isinstance(rows, dict):
        raise WeightsError(path, "has no hidden width or no weights")
    model = np.zeros((len(PLAYER_COUNTS), row_length(hidden)), dtype=np.float64)
    for index, players in enumerate(PLAYER_COUNTS):
        row = rows.get(str(players))
        if not isinstance(row, list) or len(row) != model.shape[1]:
            raise WeightsError(
                path, f"the weights for {players} players are not {model.shape[1]} numbers"
            )
        try:
            model[index] = row
        except (TypeError, ValueError):
            raise WeightsError(path, f"the weights for {players} players are not numbers") from None
    if not np.isfinite(model).all():
        raise WeightsError(path, "holds a weight that is not a finite number")
    return Weights(model, hidden, dict(header.get("made") or {}))


def save_weights(path: Path, model: np.ndarray, hidden: int, made: dict[str, Any]) -> None:
    """Write a weights file atomically (a file beside it renamed into place)."""
    header = {
        "format": WEIGHTS_FORMAT,
        "version": WEIGHTS_VERSION,
        "features": FEATURES,
        "hidden": hidden,
        "weights": {
            str(players): [round(float(w), 6) for w in model[index]]
            for index, players in enumerate(PLAYER_COUNTS)
        },
        "made": made,
    }
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(header, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)


@functools.cache
def shipped_model() -> np.ndarray:
    """The shipped weights' model (read once a process)."""
    return load_weights().model


def no_model() -> np.ndarray:
    """A model that scores every action alike, for games without an apprentice."""
    return np.zeros((len(PLAYER_COUNTS), FEATURES), dtype=np.float64)


@inline
def kind_of(block: int) -> int:
    """An action's kind, a column offset of the kind features."""
    if CASTLE_1 <= block < CASTLE_1 + RANKS:
        return block - CASTLE_1
    if block == START:
        return RANKS
    if block == PLACE_DRAWN:
        return RANKS + 1
    if block == DRAW:
        return RANKS + 2
    if block == PASS:
        return RANKS + 3
    return RANKS + 4  # choosing a face-up tile


@inline
def lead_of(state, rules, seat) -> float:
    """The seat's gold less the best other seat's."""
    best = -1_000_000
    for other in range(rules[PLAYERS]):
        if other != seat:
            best = max(best, state[gold_at(rules, other)])
    return state[gold_at(rules, seat)] - best


@inline
def held_share(state, rules, seat) -> float:
    """The share of the ranks of its castles that the seat has not placed yet."""
    held = total = 0
    for rank in range(RANKS):
        held += (rank + 1) * state[castles_at(rules, seat, rank)]
        total += (rank + 1) * rules[rules[CASTLE_COUNTS_AT] + rank]
    return held / max(total, 1)


@kernel
def action_features(state, rules, unseen, legal, count, values, scratch, mind) -> None:
    """Describe the first `count` legal actions of the seat to move into `mind.features`, from
    what that seat sees (`values`, `unseen`, `scratch`: the policies' scratch arrays)."""
    features = mind.features
    greedy = mind.greedy
    unseen_by(state, rules, state[TO_MOVE], unseen)
    action_values_in(state, rules, unseen, legal, count, 1.0, np.nan, values, scratch)
    draw_value = 0.0
    for i in range(count):
        if action_block(rules, legal[i]) == DRAW:
            draw_value = values[i]
    action_values_in(state, rules, unseen, legal, count, 0.0, draw_value, greedy, scratch)
    best_value, best_greedy = -np.inf, -np.inf
    for i in range(count):
        best_value = max(best_value, values[i])
        best_greedy = max(best_greedy, greedy[i])
    board = board_of(state, rules)
    seat = state[TO_MOVE]
    wizard = wizard_cell(board, rules)
    fill = 1.0 - state[EMPTY] / rules[CELLS]
    progress = (state[EPOCH] - 1) / max(rules[EPOCHS] - 1, 1)
    lead = lead_of(state, rules, seat) / LEAD_SCALE
    held = held_share(state, rules, seat)
    for i in range(count):
        row = features[i]
        row[:] = 0.0
        value = (values[i] - best_value) / VALUE_SCALE
        greedy_value = (greedy[i] - best_greedy) / VALUE_SCALE
        row[VALUES] = value
        row[VALUES + 1] = greedy_value
        row[VALUES_BY_FILL_AT] = value * fill
        row[VALUES_BY_FILL_AT + 1] = greedy_value * fill
        block = action_block(rules, legal[i])
        kind = kind_of(block)
        row[KIND_AT + kind] = 1.0
        row[KIND_BY_FILL_AT + kind] = fill
        row[KIND_BY_EPOCH_AT + kind] = progress
        if kind == RANKS + 2:
            row[LEAD_BY_DRAW] = lead
            row[HELD_BY_DRAW] = held
        if kind < RANKS:
            row[LEAD_BY_CASTLE] = lead
            row[HELD_BY_CASTLE] = held
            cell = legal[i] - first_id(rules, block)
            row[CASTLE_RANK] = candidate_rank(board, rules, cell, seat, kind, wizard) / RANKS
            still_open = 0
            for axis in range(2):
                segment = scratch.of[cell, axis]
                still_open += scratch.stats[segment, OPEN] - 1
            row[CASTLE_OPEN] = still_open / rules[CELLS]


@inline
def score(row, x) -> float:
    """The model row's score of one action's features: linear, plus the tanh layer's."""
    total = 0.0
    for f in range(FEATURES):
        total += row[f] * x[f]
    hidden = (row.shape[0] - FEATURES) // (FEATURES + 2)
    weights_at = FEATURES + hidden
    out_at = weights_at + hidden * FEATURES
    for h in range(hidden):
        z = row[FEATURES + h]
        at = weights_at + h * FEATURES
        for f in range(FEATURES):
            z += row[at + f] * x[f]
        total += row[out_at + h] * math.tanh(z)
    return total


@kernel
def apprentice_scores(state, rules, unseen, legal, count, values, scratch, mind) -> None:
    """The model's score of each of the first `count` legal actions, into `mind.scores`."""
    action_features(state, rules, unseen, legal, count, values, scratch, mind)
    row = mind.model[rules[PLAYERS] - 2]
    for i in range(count):
        mind.scores[i] = score(row, mind.features[i])


@kernel
def prior(scores, count, out) -> None:
    """The softmax of the first `count` scores, into `out`."""
    top = -np.inf
    for i in range(count):
        top = max(top, scores[i])
    total = 0.0
    for i in range(count):
        out[i] = math.exp(scores[i] - top)
        total += out[i]
    for i in range(count):
        out[i] /= total


@kernel
def game_decisions(state, rules, actions, labels, learner, features, candidates, chosen) -> int:
    """Replay one game's actions from the start, describing every decision of a seat with
    `learner[seat]` set that had a choice and a label (`labels[k]`, the action the teacher
    chose at the k-th action's position, -1 for none): its candidates' features stacked into
    `features` (decision d's rows at candidates[d]:candidates[d + 1]) and the row of the
    teacher's action into `chosen`; returns how many decisions there were."""
    legal = np.zeros(rules[ACTION_COUNT], dtype=np.int64)
    values = np.zeros(legal.shape[0], dtype=np.float64)
    unseen = np.zeros(rules[TILE_CODES], dtype=np.int64)
    scratch = policy_scratch(rules)
    mind = new_mind(rules, np.zeros((3, FEATURES), dtype=np.float64))
    begin_game(state, rules)
    decisions = 0
    candidates[0] = 0
    for k in range(actions.shape[0]):
        phase = state[PHASE]
        if (phase == TURN or phase == PLACE) and learner[state[TO_MOVE]] and labels[k] >= 0:
            count = legal_actions(state, rules, legal)
            if count > 1:
                action_features(state, rules, unseen, legal, count, values, scratch, mind)
                start = candidates[decisions]
                chosen[decisions] = -1
                for i in range(count):
                    features[start + i] = mind.features[i]
                    if legal[i] == labels[k]:
                        chosen[decisions] = start + i
                if chosen[decisions] >= 0:  # a label that is not legal here teaches nothing
                    candidates[decisions + 1] = start + count
                    decisions += 1
        apply_action(state, rules, np.int64(actions[k]))
    return decisions
