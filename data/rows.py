"""Turn played games into the lake's tables (Arrow), many games at a time.

A game arrives as its list of actions (the engine's history) plus who played it. The kernel
replays every game of a batch in one compiled pass (engine/kernel/replay.py): the turns, with
how many legal actions each mover had, the deals, every epoch's scored board and the gains.
The rest (castles, impacts, seats) is computed from those arrays for the whole batch at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import InitVar, dataclass, field
from datetime import datetime
from functools import cache
from itertools import chain

import numba
import numpy as np
import pyarrow as pa

from data.schema import ENGINE_VERSION, KINDS, TABLE_SCHEMAS, VALUE_OFFSET
from engine import moves, pieces
from engine.kernel.batch import SEATS, BoardScores, score_boards
from engine.kernel.replay import (
    TURN_COLUMNS,
    Replayed,
    ReplayedTurns,
    ReplayError,
    replay_games,
)
from engine.outcome import seat_outcomes
from engine.rules import RuleSet

CASTLE, DRAW, START = (KINDS.index(kind) for kind in ("castle", "draw", "start"))
SEAT_NAMES = tuple(pieces.SEAT_LETTERS)


@dataclass
class PlayedGame:
    """A finished game as the engine played (or replayed) it. Its history is kept as bytes:
    a batch holds thousands of games, and a list of ints costs eight times the memory."""

    players: int
    rules: RuleSet
    history: InitVar[Sequence[int] | np.ndarray]
    epoch_gains: list[list[int]]  # as played; the stored gains are the kernel replay's
    players_names: Sequence[str]  # games played from one plan share these
    agents: Sequence[str | None]
    seed: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    unseen_starts: Sequence[tuple[int, int]] = ()  # (epoch, seat): a `?` never placed
    actions: bytes = field(init=False)  # the history as bytes (every action id is below 256)
    game_id: int = field(init=False)

    def __post_init__(self, history: Sequence[int] | np.ndarray) -> None:
        # Worked out at once: every game is identified before it is stored.
        self.actions = bytes(bytearray(history))  # twice as fast as bytes() of a list
        self.game_id = game_id(self.rules, self.players, self.actions)


def game_id(rules: RuleSet, players: int, history: Sequence[int]) -> int:
    """A stable id: a hash of the rule set, the player count and every action."""
    digest = _setup_hash(rules, players).copy()  # the setup is hashed once, not once a game
    digest.update(bytes(history))
    return int.from_bytes(digest.digest(), "big") >> 1


@cache
def _setup_hash(rules: RuleSet, players: int):
    """The hash of the rules and the player count, which every game id goes on from."""
    setup = f"{rules.edition}|{rules.variant_text()}|{players}|"
    return hashlib.blake2b(setup.encode(), digest_size=8)


@dataclass(frozen=True)
class Setups:
    """A batch's distinct setups (player count, rules), and each game's as an index into
    them: what follows from the rules is worked out once per setup, not once per game."""

    code: np.ndarray
    distinct: list[tuple[int, RuleSet]]

    @classmethod
    def of(cls, games: Sequence[PlayedGame]) -> Setups:
        index: dict[tuple[int, RuleSet], int] = {}
        codes = [index.setdefault((g.players, g.rules), len(index)) for g in games]
        return cls(np.array(codes, dtype=np.int64), list(index))

    def per_game(self, value: Callable[[int, RuleSet], object], dtype=None) -> np.ndarray:
        """`value(players, rules)` for every game."""
        return np.array([value(*setup) for setup in self.distinct], dtype=dtype)[self.code]


# ---------------------------------------------------------------------------- Arrow helpers


def _dictionary(indices: np.ndarray, names: Sequence[str], null: np.ndarray | None = None):
    """A dictionary-encoded string column from small integer codes (null where `null`)."""
    return pa.DictionaryArray.from_arrays(
        pa.array(indices.astype(np.int8), mask=null), pa.array(list(names))
    )


def _int(values: np.ndarray, kind: str) -> pa.Array:
    return pa.array(values.astype(kind))


def _deals(deals: np.ndarray) -> pa.ListArray:
    """Each game's starting tiles dealt, seat by seat, epoch after epoch (codes, 0 = none)."""
    dealt = deals.reshape(len(deals), -1)
    offsets = np.r_[0, np.cumsum((dealt > 0).sum(axis=1))].astype(np.int32)
    return pa.ListArray.from_arrays(offsets, pa.array(dealt[dealt > 0].astype(np.uint8)))


def _tags(games: Sequence[PlayedGame]) -> pa.MapArray:
    """The records' tags, one map per game (built from flat keys and values: fast)."""
    tags = [g.tags for g in games]
    offsets = np.r_[0, np.cumsum(list(map(len, tags)))].astype(np.int32)
    keys = pa.array(list(chain.from_iterable(tags)), pa.string())
    values = pa.array(list(chain.from_iterable(map(dict.values, tags))), pa.string())
    return pa.MapArray.from_arrays(offsets, keys, values)


def _unseen_starts(games: Sequence[PlayedGame]) -> pa.ListArray:
    """Each game's starting tiles nobody saw, as positions in its `deals` (the tile stored
    there stands in for one: it was never placed)."""
    positions = [[(e - 1) * g.players + s for e, s in g.unseen_starts] for g in games]
    return pa.array(positions, pa.list_(pa.uint8()))


def _table(name: str, columns: list[pa.Array]) -> pa.Table:
    return pa.Table.from_arrays(columns, schema=TABLE_SCHEMAS[name])


# ---------------------------------------------------------------------------- the tables


def build_tables(games: Sequence[PlayedGame], created: datetime) -> dict[str, pa.Table]:
    """The stored tables of a batch of games, sorted by game id (the games replayed by the
    kernel); ReplayError, naming the game, for one whose actions the rules refuse."""
    ids = np.array([g.game_id for g in games], dtype=np.int64)
    order = np.argsort(ids, kind="stable")
    games, ids = [games[i] for i in order], ids[order]
    count = len(games)
    setups = Setups.of(games)
    players = setups.per_game(lambda players, _: players, np.int64)
    replayed = _replay(games, ids, setups)
    turns = replayed.turns
    epochs = int(replayed.epochs.max(initial=1))  # the most any game of the batch played
    gains = replayed.gains[:, :epochs]
    played = (np.arange(epochs)[None, :, None] < replayed.epochs[:, None, None]) & (
        np.arange(SEATS)[None, None, :] < players[:, None, None]
    )
    start = setups.per_game(lambda _, rules: rules.start_gold, np.int64)

    board = turns.game * epochs + turns.epoch - 1  # each turn's epoch board, game by game
    scores = _epoch_scores(replayed.boards[:, :epochs], setups)

    final = start[:, None] + gains.sum(axis=1)
    plies = np.bincount(turns.game, minlength=count)
    first_seat = turns.seat[np.minimum(np.cumsum(plies) - plies, max(len(turns.seat) - 1, 0))]

    deals = replayed.deals[:, :epochs]
    tables = {
        "games": _games_table(games, ids, setups, players, plies, first_seat, deals, created),
        "seats": _seats_table(games, ids, players, final, first_seat),
        "moves": _moves_table(ids, turns, players, board, scores),
        "epoch_scores": _epoch_table(ids, played, gains, start),
    }
    return tables


def _replay(games: Sequence[PlayedGame], ids: np.ndarray, setups: Setups) -> Replayed:
    """Every game's actions replayed by the kernel, its turns' kinds coded as `moves` stores
    them; ReplayError naming the game id for a list the rules refuse."""
    actions = np.frombuffer(b"".join(g.actions for g in games), dtype=np.uint8)
    offsets = np.r_[0, np.cumsum([len(g.actions) for g in games])]
    try:
        replayed = replay_games(setups.distinct, setups.code, actions, offsets)
    except ReplayError as error:
        raise ReplayError(error.game, error.ply, error.reason, ids[error.game]) from None
    replayed.turns.kind[:] = _STORED_KINDS[replayed.turns.kind]
    return replayed


_STORED_KINDS = np.array([KINDS.index(kind) for kind in moves.KINDS], dtype=np.int8)


def _epoch_scores(boards: np.ndarray, setups: Setups) -> BoardScores:
    """The breakdown of every game's epoch boards ((G, E, cells), flattened to G·E boards),
    each scored under its own game's rules."""
    flat = boards.reshape(boards.shape[0] * boards.shape[1], boards.shape[2])
    rule_sets = list(dict.fromkeys(rules for _, rules in setups.distinct))
    if len(rule_sets) <= 1:
        return score_boards(flat, *rule_sets)
    code = np.repeat(setups.per_game(lambda _, rules: rule_sets.index(rules)), boards.shape[1])
    parts = [score_boards(flat[code == k], rules) for k, rules in enumerate(rule_sets)]
    whole = {}
    for name in BoardScores.__dataclass_fields__:
        column = np.zeros((len(flat), *getattr(parts[0], name).shape[1:]), dtype=np.int64)
        for k, part in enumerate(parts):
            column[code == k] = getattr(part, name)
        whole[name] = column
    return BoardScores(**whole)


def _games_table(games, ids, setups: Setups, players, plies, first_seat, deals, created):
    count = len(games)
    editions = sorted({rules.edition for _, rules in setups.distinct})
    variants = sorted({rules.variant_text() for _, rules in setups.distinct})
    edition = setups.per_game(lambda _, rules: editions.index(rules.edition))
    variant = setups.per_game(lambda _, rules: variants.index(rules.variant_text()))
    seeds = [g.seed for g in games]
    return _table(
        "games",
        [
            pa.array(ids),
            _dictionary(edition, editions),
            _dictionary(variant, variants),
            _int(players, "int8"),
            pa.array(seeds, pa.int64()),
            _dictionary(first_seat, SEAT_NAMES),
            _int(plies, "int16"),
            pa.repeat(pa.scalar(created, pa.timestamp("ms", tz="UTC")), count),
            _dictionary(np.zeros(count), [ENGINE_VERSION]),
            _tags(games),
            _deals(deals),
            _unseen_starts(games),
            pa.array([g.actions for g in games], pa.binary()),
        ],
    )


def _seats_table(games, ids, players, final, first_seat) -> pa.Table:
    outcome = seat_outcomes(final, players)
    game_index, seat = np.nonzero(outcome.seated)  # game by game, seat by seat
    position = (seat - first_seat[game_index]) % players[game_index] + 1
    rank, win_share, utility, margin = (
        column[outcome.seated]
        for column in (outcome.rank, outcome.win_share, outcome.utility, outcome.margin)
    )
    names, seat_agents, line_up_seat = _line_ups(games)
    at = pa.array(line_up_seat[game_index] + seat)  # each row's seat among the line-ups'
    agents = sorted({a for a in seat_agents if a})
    code: dict[str | None, int] = {agent: index for index, agent in enumerate(agents)}
    agent_codes = np.array([code.get(agent, 0) for agent in seat_agents], dtype=np.int8)
    no_agent = np.array([agent is None for agent in seat_agents], dtype=bool)
    return _table(
        "seats",
        [
            pa.array(ids[game_index]),
            _dictionary(seat, SEAT_NAMES),
            pa.array(names, type=pa.string()).take(at),
            _dictionary(agent_codes, agents or [""], no_agent).take(at),
            _int(position, "int8"),
            _int(final[game_index, seat], "int16"),
            pa.array(rank),
            pa.array(win_share),
            pa.array(utility),
            _int(margin, "int16"),
        ],
    )


def _line_ups(games: Sequence[PlayedGame]) -> tuple[list[str], list[str | None], np.ndarray]:
    """The players and agents of every distinct line-up, seat after seat, and where each
    game's first seat is among them. Games that share their lists are looked up once."""
    shared: dict[tuple[int, int], int] = {}
    first = [shared.setdefault((id(g.players_names), id(g.agents)), i) for i, g in enumerate(games)]
    names: list[str] = []
    agents: list[str | None] = []
    start = np.zeros(len(games), dtype=np.int64)
    for i in shared.values():
        start[i] = len(names)
        names += games[i].players_names
        agents += games[i].agents
    return names, agents, start[first]


def _moves_table(ids, turns: ReplayedTurns, players, board, scores: BoardScores) -> pa.Table:
    """The turns as small integer codes (see data/schema.py), each placement with what it
    scored on the epoch's final board: a castle's row and column gold and effective rank, a
    tile's impact on every seat."""
    values = np.zeros((SEATS, len(turns.kind)), dtype=np.uint16)
    _placement_values(turns.kind, turns.cell, board, players[turns.game],
                      scores.effective_rank, scores.row_base, scores.column_base, scores.impacts,
                      values)  # fmt: skip
    return _table(
        "moves",
        [
            pa.array(ids[turns.game]),
            # then every turn column but the game index, in the order `moves` stores them
            *(pa.array(getattr(turns, name)) for name in TURN_COLUMNS[1:]),
            *(pa.array(column) for column in values),
        ],
    )


@numba.njit(cache=True)
def _placement_values(kind, cell, board_row, players, rank, row_base, column_base, impacts,
                      values):  # fmt: skip
    """What every placement scored on its epoch's final board, stored as data/schema.py says:
    a castle's row and column gold (+ offset) and effective rank, a tile's impact on each
    seated player (+ offset)."""
    for i in range(len(kind)):
        board, c = board_row[i], cell[i]
        if kind[i] == CASTLE:
            r = rank[board, c]
            values[0, i] = row_base[board, c] * r + VALUE_OFFSET
            values[1, i] = column_base[board, c] * r + VALUE_OFFSET
            values[2, i] = r
        elif kind[i] == DRAW or kind[i] == START:
            for seat in range(players[i]):
                values[seat, i] = impacts[board, c, seat] + VALUE_OFFSET


def _epoch_table(ids, played, gains, start) -> pa.Table:
    after = start[:, None, None] + np.cumsum(gains, axis=1)
    game_index, epoch, seat = np.nonzero(played)
    return _table(
        "epoch_scores",
        [
            pa.array(ids[game_index]),
            _int(epoch + 1, "int8"),
            _dictionary(seat, SEAT_NAMES),
            _int(gains[game_index, epoch, seat], "int16"),
            _int(after[game_index, epoch, seat], "int16"),
        ],
    )
