"""The kernel's batch replay held to the readable engine's replay of the same actions.

Seeded games of every edition × variant × player count, replayed in one shuffled batch: every
turn's columns, the starting tiles dealt, every epoch's scored board, the gains per epoch and
the epochs played as engine.State walks them; then what an action list the rules refuse does.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from engine import moves, pieces
from engine.kernel.batch import random_games
from engine.kernel.replay import TURN_TYPES, ReplayError, replay_games
from engine.rules import EDITIONS, rule_set
from engine.state import TURN, Game
from engine.turns import Deal, walk
from tests.data.turns import most_legal_actions

VARIANT_SETS = (
    "",
    "no-luck",
    "last-castle",
    "score-as-you-go",
    "no-luck,last-castle,score-as-you-go",
)
SETUPS = [
    (players, rule_set(edition, variants))
    for edition in EDITIONS
    for variants in VARIANT_SETS
    for players in (2, 3, 4)
]
GAMES_PER_SETUP = 6  # 360 games in all: half the random agent's, half uniform over legal actions


def _uniform_game(game: Game, rng: random.Random) -> list[int]:
    """A game whose every action (and chance outcome) is uniform over what is legal there."""
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.history


def _engine_replay(players: int, rules, actions: list[int]) -> dict:
    """What engine.State says the actions did, in the replay's terms."""
    game = Game(players, rules)
    turns, deals, boards = [], {}, {}
    per_epoch = Counter()
    for item in walk(game, actions):
        if isinstance(item, Deal):
            deals[item.epoch, item.seat] = item.tile
            continue
        move = item.move
        piece = pieces.castle(item.seat, move.rank) if move.kind == moves.CASTLE else move.tile
        if move.cell is not None:  # pieces stay on the board until the epoch is scored
            boards.setdefault(item.epoch, [0] * rules.cells)[move.cell] = piece
        per_epoch[item.epoch] += 1
        turns.append(
            (
                item.epoch,
                len(turns) + 1,
                per_epoch[item.epoch],
                item.seat,
                moves.KINDS.index(move.kind),
                -1 if move.cell is None else move.cell,
                piece,
                most_legal_actions(item),
                item.before.gold[item.seat],
            )
        )
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    assert state.is_terminal()
    return {"turns": turns, "deals": deals, "boards": boards, "gains": state.epoch_gains}


@pytest.fixture(scope="module")
def batch():
    """Every setup's games in one batch, in shuffled order (setups interleave as in a lake's)."""
    rng = random.Random(14)
    games = []
    for code, (players, rules) in enumerate(SETUPS):
        played = random_games(players, rules, range(GAMES_PER_SETUP // 2))
        games += [(code, played.history(k).tolist()) for k in range(GAMES_PER_SETUP // 2)]
        game = Game(players, rules)
        games += [(code, _uniform_game(game, rng)) for _ in range(GAMES_PER_SETUP // 2)]
    rng.shuffle(games)
    return games


def _arrays(games):
    setup = np.array([code for code, _ in games], dtype=np.int64)
    actions = np.array([a for _, history in games for a in history], dtype=np.uint8)
    offsets = np.r_[0, np.cumsum([len(history) for _, history in games])]
    return setup, actions, offsets


def test_replay_is_the_engines(batch):
    replayed = replay_games(SETUPS, *_arrays(batch))
    turns = replayed.turns
    columns = [getattr(turns, name) for name in turns.__dataclass_fields__]
    assert [column.dtype for column in columns] == [np.dtype(t) for t in TURN_TYPES.values()]
    assert np.all(np.diff(turns.game) >= 0)  # games in batch order
    for index, (code, history) in enumerate(batch):
        players, rules = SETUPS[code]
        expected = _engine_replay(players, rules, history)
        mine = turns.game == index
        got = list(zip(*(column[mine].tolist() for column in columns[1:]), strict=True))
        assert got == expected["turns"], (index, rules, players)
        epochs = len(expected["gains"])
        assert replayed.epochs[index] == epochs
        assert replayed.gains[index, :epochs, :players].tolist() == expected["gains"]
        assert (
            not replayed.gains[index, epochs:].any()
            and not replayed.gains[index, :, players:].any()
        )
        dealt = {
            (int(e) + 1, int(s)): int(replayed.deals[index, e, s])
            for e, s in zip(*np.nonzero(replayed.deals[index]), strict=True)
        }
        assert dealt == expected["deals"]
        for epoch in range(1, epochs + 1):
            board = expected["boards"].get(epoch, [0] * rules.cells)
            assert replayed.boards[index, epoch - 1, : rules.cells].tolist() == board, epoch
        assert not replayed.boards[index, epochs:].any()


def _turn_start(game: Game, history: list[int], ply: int):
    """Where turn `ply` begins in the list (1-based), and the state before it."""
    state, turns = game.new_initial_state(), 0
    for position, action in enumerate(history, 1):
        if state.phase == TURN:
            turns += 1
            if turns == ply:
                return position, state
        state.apply_action(action)
    raise AssertionError(f"the game has fewer than {ply} turns")


def test_an_illegal_action_names_its_game_and_ply(batch):
    code, history = next(item for item in batch if SETUPS[item[0]][1] == rule_set())
    game = Game(*SETUPS[code])
    position, before = _turn_start(game, history, 10)
    occupied = next(cell for cell, piece in enumerate(before.board) if piece)
    wrong = game.codes.castle(1, occupied)  # a castle on a cell that is taken
    broken = [*history[: position - 1], wrong, *history[position:]]
    message = rf"game 3: action {wrong} \(number {position} of its list, ply 10\) is not legal"
    with pytest.raises(ReplayError, match=message) as refused:
        replay_games(SETUPS, *_arrays([*batch[:3], (code, broken)]))
    assert (refused.value.game, refused.value.ply) == (3, 10)


def test_a_list_that_ends_too_soon_is_refused(batch):
    code, history = batch[0]
    with pytest.raises(ReplayError, match="game 1: its actions end before the game does"):
        replay_games(SETUPS, *_arrays([batch[1], (code, history[:-1]), batch[2]]))


def test_actions_after_the_end_are_refused(batch):
    code, history = batch[0]
    pass_ = Game(*SETUPS[code]).codes.pass_
    with pytest.raises(ReplayError, match=rf"game 0: action {pass_} .* is not legal"):
        replay_games(SETUPS, *_arrays([(code, [*history, pass_])]))


def test_an_empty_batch_replays_to_nothing():
    replayed = replay_games([], np.zeros(0, np.int64), np.zeros(0, np.uint8), np.zeros(1, np.int64))
    assert len(replayed.turns.game) == 0 and replayed.gains.shape[0] == 0
