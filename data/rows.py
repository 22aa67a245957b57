"""Turn played games into the lake's tables (Arrow), many games at a time.

A game arrives as its list of actions (the engine's history) plus who played it. The turns,
with how many legal actions each mover had, are read out of the actions of every game in one
compiled pass when the rules allow (every epoch fills the board: no last-castle, no
score-as-you-go); other games are replayed action by action through the engine. Either way the
rest (boards, castles, impacts, seats) is computed for the whole batch at once.
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
from engine.actions import Block
from engine.kernel.batch import SEATS, BoardScores, score_boards
from engine.kernel.replay import Replayed, ReplayError, replay_games
from engine.rules import RuleSet
from engine.state import DEAL, PLACE, TURN, Game

CASTLE, DRAW, START, PASS = range(len(KINDS))
SEAT_NAMES = tuple(pieces.SEAT_LETTERS)


@dataclass
class PlayedGame:
    """A finished game as the engine played (or replayed) it. Its history is kept as bytes:
    a batch holds thousands of games, and a list of ints costs eight times the memory."""

    players: int
    rules: RuleSet
    history: InitVar[Sequence[int]]
    epoch_gains: list[list[int]]
    players_names: Sequence[str]  # games played from one plan share these
    agents: Sequence[str | None]
    seed: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    unseen_starts: Sequence[tuple[int, int]] = ()  # (epoch, seat): a `?` never placed
    actions: bytes = field(init=False)  # the history as bytes (every action id is below 256)
    game_id: int = field(init=False)

    def __post_init__(self, history: Sequence[int]) -> None:
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


@dataclass
class Turns:
    """One entry per turn of every game of a batch (games in batch order), each column in
    the type `moves` stores it in (TURN_TYPES)."""

    game: np.ndarray  # the game's index in the batch
    epoch: np.ndarray
    ply: np.ndarray  # 1-based within the game
    turn: np.ndarray  # 1-based within the epoch
    seat: np.ndarray
    kind: np.ndarray
    cell: np.ndarray  # -1 for a pass
    piece: np.ndarray  # 0 for a pass
    legal: np.ndarray  # the most legal actions the mover had at one decision of the turn
    gold_before: np.ndarray

    @classmethod
    def typed(cls, columns: Sequence[np.ndarray]) -> Turns:
        return cls(*(np.asarray(c, dtype=t) for c, t in zip(columns, TURN_TYPES, strict=True)))


TURN_TYPES = (np.int64, np.int8, np.int16, np.int8, np.int8, np.int8, np.int8, np.int8, np.int16,
              np.int16)  # fmt: skip


def _fast_path(rules: RuleSet) -> bool:
    return not (rules.last_castle or rules.score_as_you_go)


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


def epoch_gains(games: Sequence[PlayedGame], players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(G, epochs, SEATS) gold every seat gained in every epoch played (zeros elsewhere), and
    which of those were played (a seat in the game, an epoch it reached)."""
    epochs = np.array([len(g.epoch_gains) for g in games], dtype=np.int64)
    gains = np.zeros((len(games), epochs.max(initial=3), SEATS), dtype=np.int32)
    played = (np.arange(gains.shape[1])[None, :, None] < epochs[:, None, None]) & (
        np.arange(SEATS)[None, None, :] < players[:, None, None]
    )
    every_epoch = chain.from_iterable(g.epoch_gains for g in games)
    gains[played] = np.fromiter(chain.from_iterable(every_epoch), np.int32)
    return gains, played


def _read_fast(
    games: Sequence[PlayedGame],
    indexes: np.ndarray,
    gold: np.ndarray,
    setups: Setups,
) -> tuple[Turns, np.ndarray]:
    """The turns of the given games (whose every epoch fills the board), read straight from
    their actions, in one pass; also the starting tiles dealt, as (games, epochs, SEATS)."""
    shapes = [Game(players, rules) for players, rules in setups.distinct]
    actions = [games[i].actions for i in indexes]
    history = np.frombuffer(b"".join(actions), dtype=np.uint8)
    lengths = np.array([len(a) for a in actions], dtype=np.int64)
    columns, deals = _read_turns(
        history, np.r_[0, np.cumsum(lengths)], gold[indexes], setups.code[indexes],
        np.array([[g.players, g.rules.cells, g.rules.epochs, g.rules.no_luck,
                   g.players if g.rules.starting_tiles else 0] for g in shapes]),
        np.array([g.castle_counts for g in shapes]), np.array([g.full_supply for g in shapes]),
        np.array([g.codes.first_ids() for g in shapes], dtype=np.int64),
    )  # fmt: skip
    turns = Turns(*columns)
    turns.game = indexes[turns.game]
    return turns, deals


@numba.njit(cache=True)
def _read_turns(history, offsets, gold, setup, shape, castle_counts, full_supply, first_ids):
    """Walk each game's actions the way the engine plays them when every epoch fills the
    board. Game g follows `shape[setup[g]]`: (players, cells, epochs, no-luck, deals per epoch)
    with its castles, tile supply and action blocks (ActionCodes.first_ids); per epoch come the
    deals, in epoch 1 the first seat
    (later the richest, ties to the earliest in the last turn order), then turns clockwise
    until no cell is empty.

    Every turn's legal actions are counted as the engine lists them: empty cells × (castle
    ranks in stock + an unplayed starting tile), plus the tiles that can be drawn (one draw, or
    in no-luck one per kind left), 1 for a pass; for a draw, the most of that and the empty cells
    where the tile can go. Rank-1 castles come back after every epoch. (Cached on disk, keyed
    on this file: the piece, kind and action block codes are compiled in.)"""
    size = len(history)  # more than the turns: the columns are cut to length at the end
    game = np.empty(size, dtype=np.int64)  # the types of TURN_TYPES
    ply, legal, gold_before = np.empty((3, size), dtype=np.int16)
    epoch, turn, seat, kind, cell, piece = np.empty((6, size), dtype=np.int8)
    deals = np.zeros((len(offsets) - 1, shape[:, 2].max(), SEATS), dtype=np.int64)
    stock = np.zeros((SEATS, 4), dtype=np.int64)
    started = np.zeros(SEATS, dtype=np.bool_)
    supply = np.zeros(full_supply.shape[1], dtype=np.int64)
    count = 0
    for g in range(len(offsets) - 1):
        players, cells, epochs, no_luck, dealt = shape[setup[g]]
        first_id = first_ids[setup[g]]
        i = offsets[g]
        stock[:, :] = castle_counts[setup[g]]
        first = 0
        game_start = count
        for e in range(epochs):
            for s in range(dealt):
                deals[g, e, s] = history[i]
                i += 1
            if e == 0:
                first = history[i]
                i += 1
            else:
                richest = first
                for k in range(players):
                    s = (first + k) % players
                    if gold[g, e, s] > gold[g, e, richest]:
                        richest = s
                first = richest
            stock[:, 0] = castle_counts[setup[g], 0]
            started[:] = dealt == 0
            supply[:] = full_supply[setup[g]]
            left = supply.sum() - dealt
            empty = cells
            t = 0
            while empty > 0:
                s = (first + t) % players
                options = 0 if started[s] else 1
                for rank in range(4):
                    options += stock[s, rank] > 0
                draws = 0
                if no_luck:
                    for tile in range(len(supply)):
                        draws += supply[tile] > 0
                elif left > 0:
                    draws = 1
                a = history[i]
                i += 1
                game[count], epoch[count], turn[count], seat[count] = g, e + 1, t + 1, s
                ply[count] = count - game_start + 1
                legal[count] = max(empty * options + draws, 1)
                gold_before[count] = gold[g, e, s]
                block = 0  # the last block starting at or before the action
                while first_id[block + 1] <= a:
                    block += 1
                at = a - first_id[block]
                if block <= Block.CASTLE_4:
                    kind[count], cell[count] = CASTLE, at
                    piece[count] = pieces.CASTLE_BASE + 4 * s + block
                    stock[s, block] -= 1
                elif block == Block.START:
                    kind[count], cell[count], piece[count] = START, at, deals[g, e, s]
                    started[s] = True
                elif block == Block.PASS:
                    kind[count], cell[count], piece[count] = PASS, -1, 0
                else:  # a draw: (no-luck: the chosen tile) or the draw, the tile, then its cell
                    tile = at if no_luck else history[i]
                    i += 0 if no_luck else 1
                    kind[count], piece[count] = DRAW, tile
                    cell[count] = history[i] - first_id[Block.PLACE]
                    legal[count] = max(legal[count], empty)  # where the tile goes: any empty cell
                    i += 1
                    supply[tile] -= 1
                    left -= 1
                empty -= kind[count] != PASS
                t += 1
                count += 1
    columns = (
        game[:count], epoch[:count], ply[:count], turn[:count], seat[:count], kind[:count],
        cell[:count], piece[:count], legal[:count], gold_before[:count],
    )  # fmt: skip
    return columns, deals


def replay_turns(game: PlayedGame) -> tuple[list[tuple[int, ...]], list[int]]:
    """The turns of one game replayed through the engine, as (epoch, turn, seat, kind, cell,
    piece, legal actions (the most at one of the turn's decisions), gold_before) each,
    and the starting tiles dealt in order."""
    state = Game(game.players, game.rules).new_initial_state()
    decode = state.codes.decode
    turns, deals = [], []
    epoch, turn, pending = 0, 0, None
    for action in game.actions:
        phase = state.phase
        if phase == DEAL:
            deals.append(action)
        elif phase == TURN:
            seat = state.seat
            if state.epoch != epoch:
                epoch, turn = state.epoch, 0
            turn += 1
            legal, gold = len(state.legal_actions()), state.gold[seat]
            block, cell = decode(action)
            if rank := state.codes.castle_rank(block):
                row = (CASTLE, cell, pieces.castle(seat, rank))
                turns.append((epoch, turn, seat, *row, legal, gold))
            elif block == Block.START:
                row = (START, cell, state.start_tiles[seat])
                turns.append((epoch, turn, seat, *row, legal, gold))
            elif block == Block.PASS:
                turns.append((epoch, turn, seat, PASS, -1, 0, legal, gold))
            else:
                pending = (epoch, turn, seat, legal, gold)
        elif phase == PLACE:
            assert pending is not None
            e, t, seat, legal, gold = pending
            legal = max(legal, len(state.legal_actions()))  # where the drawn tile may go
            row = (DRAW, decode(action)[1], state.pending_tile, legal, gold)
            turns.append((e, t, seat, *row))
        state.apply_action(action)
    return turns, deals


def replayed_turns(
    games: Sequence[PlayedGame], indexes: Sequence[int]
) -> tuple[Turns, list[list[int]]]:
    """The turns of the given games, replayed through the engine (any rule set), and the
    starting tiles dealt in each."""
    rows, deals = [], []
    for i in indexes:
        turns, dealt = replay_turns(games[i])
        rows += [(i, row[0], ply, *row[1:]) for ply, row in enumerate(turns, 1)]
        deals.append(dealt)
    columns = np.array(rows, dtype=np.int64).reshape(-1, len(Turns.__dataclass_fields__)).T
    return Turns.typed(columns), deals


def extract_turns(
    games: Sequence[PlayedGame],
    gains: np.ndarray,
    setups: Setups,
) -> tuple[Turns, np.ndarray]:
    """Every turn of every game (which gained `gains`, as `epoch_gains` gives them), ordered
    by game (batch order), then ply; and the starting tiles dealt, (games, epochs, SEATS), 0
    where none was."""
    start = setups.per_game(lambda _, rules: rules.start_gold, np.int32)
    gold = start[:, None, None] + np.cumsum(
        np.concatenate([np.zeros_like(gains[:, :1]), gains], 1), 1
    )
    deals = np.zeros((len(games), gains.shape[1], SEATS), dtype=np.int64)
    fast = setups.per_game(lambda _, rules: _fast_path(rules), bool)
    parts: list[Turns] = []
    if fast.any():
        turns, dealt = _read_fast(games, np.nonzero(fast)[0], gold, setups)
        deals[fast, : dealt.shape[1]] = dealt
        parts.append(turns)
    if not fast.all():
        slow = np.nonzero(~fast)[0]
        turns, dealt = replayed_turns(games, slow)
        for index, tiles in zip(slow, dealt, strict=True):
            deals[index, : len(tiles) // games[index].players, : games[index].players] = np.reshape(
                tiles, (-1, games[index].players)
            )
        parts.append(turns)
    if len(parts) == 1:
        return parts[0], deals
    names = Turns.__dataclass_fields__
    merged = Turns(*(np.concatenate([getattr(p, f) for p in parts]) for f in names))
    order = np.argsort(merged.game, kind="stable")  # each game's turns are in order already
    return Turns(*(getattr(merged, f)[order] for f in names)), deals


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


def _build_tables_reinterpreted(
    games: Sequence[PlayedGame], created: datetime
) -> dict[str, pa.Table]:
    """The stored tables of a batch of games, sorted by game id (the turns re-read here)."""
    ids = np.array([g.game_id for g in games], dtype=np.int64)
    order = np.argsort(ids, kind="stable")
    games, ids = [games[i] for i in order], ids[order]
    count = len(games)
    setups = Setups.of(games)
    players = setups.per_game(lambda players, _: players, np.int64)
    gains, played = epoch_gains(games, players)
    turns, deals = extract_turns(games, gains, setups)
    start = setups.per_game(lambda _, rules: rules.start_gold, np.int64)
    epochs = gains.shape[1]

    board = turns.game * epochs + turns.epoch - 1  # each turn's epoch board, game by game
    scores = score_boards(_final_boards(board, turns.kind, turns.cell, turns.piece, count * epochs))

    final = start[:, None] + gains.sum(axis=1)
    plies = np.bincount(turns.game, minlength=count)
    first_seat = turns.seat[np.minimum(np.cumsum(plies) - plies, max(len(turns.seat) - 1, 0))]

    tables = {
        "games": _games_table(games, ids, setups, players, plies, first_seat, deals, created),
        "seats": _seats_table(games, ids, players, final, first_seat),
        "moves": _moves_table(ids, turns, players, board, scores),
        "epoch_scores": _epoch_table(ids, played, gains, start),
    }
    return tables


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


@numba.njit(cache=True)
def _final_boards(board, kind, cell, piece, boards):
    """Every epoch's board when it is scored: (boards, 30) piece codes, 0 for empty."""
    final = np.zeros((boards, 30), dtype=np.int16)
    for turn in range(len(board)):
        if kind[turn] != PASS:
            final[board[turn], cell[turn]] = piece[turn]
    return final


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
        ],
    )


def _seats_table(games, ids, players, final, first_seat) -> pa.Table:
    game_index, seat, position, rank, win_share, utility, margin = _outcomes(
        final, players, first_seat
    )
    names, seat_agents, line_up_seat = _line_ups(games)
    at = pa.array(line_up_seat[game_index] + seat)  # each row's seat among the line-ups'
    agents = sorted({a for a in seat_agents if a})
    code = {agent: index for index, agent in enumerate(agents)}
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


@numba.njit(cache=True)
def _outcomes(final, players, first_seat):
    """Every seat of every game (game by game, seat by seat) with its outcome from the final
    gold: the game, the seat, its position in the first turn order, its rank (1 = most gold,
    ties share the mean of their places), win share (a win split between the tied winners),
    utility (1 − 2 (rank − 1) / (players − 1)) and margin (its gold less the best other's)."""
    rows = players.sum()
    game, seat, position, margin = np.empty((4, rows), dtype=np.int64)
    rank, win_share, utility = np.empty((3, rows), dtype=np.float64)
    row = 0
    for g in range(len(players)):
        count = players[g]
        gold = final[g, :count]
        best = gold.max()
        winners = (gold == best).sum()
        for s in range(count):
            above = ties = 0
            others = np.iinfo(np.int64).min
            for other in range(count):
                above += gold[other] > gold[s]
                ties += gold[other] == gold[s]
                if other != s:
                    others = max(others, gold[other])
            game[row], seat[row] = g, s
            position[row] = (s - first_seat[g]) % count + 1
            rank[row] = 1 + above + (ties - 1) / 2
            win_share[row] = 1.0 / winners if gold[s] == best else 0.0
            utility[row] = 1 - 2 * (rank[row] - 1) / (count - 1)
            margin[row] = gold[s] - others
            row += 1
    return game, seat, position, rank, win_share, utility, margin


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


def _moves_table(ids, turns: Turns, players, board, scores: BoardScores) -> pa.Table:
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
            *(pa.array(getattr(turns, name)) for name in list(Turns.__dataclass_fields__)[1:]),
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
