"""Turn played games into the lake's tables (Arrow), many games at a time.

A game arrives as its list of actions (the engine's history) plus who played it. The turns are
read out of the actions with numpy for whole groups of games when the rules allow (every epoch
fills the board: no last-castle, no score-as-you-go), with how many legal actions each mover
had; other games are replayed action by action through the engine. Either way the rest
(boards, castles, impacts, seats) is computed for the whole batch at once.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from datetime import datetime

import numba
import numpy as np
import pyarrow as pa

from data.schema import ENGINE_VERSION, KINDS, NO_IMPACT, TABLE_SCHEMAS
from data.scoring_arrays import SEATS, BoardScores, score_boards
from engine import pieces
from engine.rules import RuleSet
from engine.state import DEAL, PLACE, TURN, Game

CASTLE, DRAW, START, PASS = range(len(KINDS))
SEAT_NAMES = tuple(pieces.SEAT_LETTERS)


@dataclass
class PlayedGame:
    """A finished game as the engine played (or replayed) it."""

    players: int
    rules: RuleSet
    history: list[int]
    epoch_gains: list[list[int]]
    players_names: list[str]
    agents: list[str | None]
    seed: int | None = None
    tags: dict[str, str] = field(default_factory=dict)

    @cached_property
    def game_id(self) -> int:
        return game_id(self.rules, self.players, self.history)


def game_id(rules: RuleSet, players: int, history: Sequence[int]) -> int:
    """A stable id: a hash of the rule set, the player count and every action."""
    digest = hashlib.blake2b(
        f"{rules.edition}|{rules.variant_text()}|{players}|".encode() + bytes(history),
        digest_size=8,
    ).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass
class Turns:
    """One entry per turn of every game of a batch (games in batch order)."""

    game: np.ndarray
    epoch: np.ndarray
    turn: np.ndarray  # 1-based within the epoch
    seat: np.ndarray
    kind: np.ndarray
    cell: np.ndarray  # -1 for a pass
    piece: np.ndarray  # 0 for a pass
    action: np.ndarray  # the action that completes the turn
    legal: np.ndarray  # how many legal actions the mover had at the start of the turn
    gold_before: np.ndarray


def _fast_path(rules: RuleSet) -> bool:
    return not (rules.last_castle or rules.score_as_you_go)


def _group_starts(keys: np.ndarray) -> np.ndarray:
    """For each element, the index where its run of equal (sorted) keys begins."""
    if not len(keys):
        return keys.copy()
    starts = np.r_[0, np.nonzero(np.diff(keys))[0] + 1]
    return np.repeat(starts, np.diff(np.r_[starts, len(keys)]))


def _per_group_index(keys: np.ndarray) -> np.ndarray:
    """0-based position of each element within its run of equal (sorted) keys."""
    return np.arange(len(keys)) - _group_starts(keys)


def _legal_counts(
    players: int, rules: RuleSet, game: np.ndarray, epoch: np.ndarray, seat: np.ndarray,
    kind: np.ndarray, piece: np.ndarray,
) -> np.ndarray:
    """How many legal actions each mover had, for the turns of games with these rules and
    player count (whole epochs that fill the board, in order)."""
    setup = Game(players, rules)
    return _count_legal(
        game, epoch, seat, kind, piece, np.asarray(setup.castle_counts),
        np.asarray(setup.full_supply), rules.cells, rules.no_luck,
        players if rules.starting_tiles else 0,
    )  # fmt: skip


@numba.njit(cache=True)
def _count_legal(game, epoch, seat, kind, piece, castle_counts, full_supply, cells, no_luck,
                 dealt):  # fmt: skip
    """Turn by turn: empty cells × (castle ranks in stock + an unplayed starting tile), plus
    the tiles that can be drawn (one draw, or in no-luck one per kind left); 1 for a pass.
    Rank-1 castles come back after every epoch, the others are spent for the game."""
    legal = np.empty(len(kind), dtype=np.int64)
    stock = np.zeros((SEATS, 4), dtype=np.int64)
    started = np.zeros(SEATS, dtype=np.bool_)
    supply = full_supply.copy()
    left = empty = 0
    for i in range(len(kind)):
        if i == 0 or game[i] != game[i - 1]:
            stock[:, :] = castle_counts
        if i == 0 or game[i] != game[i - 1] or epoch[i] != epoch[i - 1]:
            stock[:, 0] = castle_counts[0]
            started[:] = dealt == 0
            supply[:] = full_supply
            left = full_supply.sum() - dealt
            empty = cells
        s = seat[i]
        options = 0 if started[s] else 1
        for rank in range(4):
            options += stock[s, rank] > 0
        draws = 0
        if no_luck:
            for tile in range(len(supply)):
                draws += supply[tile] > 0
        elif left > 0:
            draws = 1
        legal[i] = max(empty * options + draws, 1)
        if kind[i] == CASTLE:
            stock[s, (piece[i] - pieces.CASTLE_BASE) & 3] -= 1
        elif kind[i] == START:
            started[s] = True
        elif kind[i] == DRAW:
            supply[piece[i]] -= 1
            left -= 1
        empty -= kind[i] != PASS
    return legal


def epoch_gains(games: Sequence[PlayedGame]) -> np.ndarray:
    """(G, epochs, SEATS) gold every seat gained in every epoch played (zeros elsewhere)."""
    epochs = max((len(g.epoch_gains) for g in games), default=3)
    gains = np.zeros((len(games), epochs, SEATS), dtype=np.int32)
    for g, game in enumerate(games):
        gains[g, : len(game.epoch_gains), : game.players] = game.epoch_gains
    return gains


def _vector_turns(
    games: Sequence[PlayedGame], indexes: np.ndarray, start_gold: np.ndarray
) -> tuple[Turns, np.ndarray]:
    """Read the turns of games with the same rules and player count straight from their
    actions; also the starting tiles dealt, as (games, epochs, SEATS)."""
    first_game = games[indexes[0]]
    players, rules = first_game.players, first_game.rules
    n = rules.cells
    no_luck = rules.no_luck
    epochs = rules.epochs
    lengths = np.array([len(games[i].history) for i in indexes])
    actions = itertools.chain.from_iterable(games[i].history for i in indexes)
    h = np.fromiter(actions, dtype=np.int16, count=int(lengths.sum()))
    local = np.repeat(np.arange(len(indexes)), lengths)
    offsets = np.r_[0, np.cumsum(lengths)[:-1]]

    draw = 6 * n
    pass_ = 6 * n + 1
    picks = np.nonzero(h >= 6 * n + 2)[0] if no_luck else np.nonzero(h == draw)[0]
    secondary = np.zeros(len(h), dtype=bool)
    tile_at = picks + (0 if no_luck else 1)
    place_at = picks + (1 if no_luck else 2)
    if not no_luck:
        secondary[tile_at] = True
    secondary[place_at] = True
    position = np.nonzero(~secondary)[0]
    value = h[position]
    game = local[position]
    nonpass = value != pass_
    counted = np.cumsum(nonpass)
    counted -= np.r_[0, counted][np.searchsorted(position, offsets)][game]

    headers = [players + 1, players, players] if not no_luck else [1, 0, 0]
    headers += headers[-1:] * (epochs - 3)
    epoch = np.ones(len(position), dtype=np.int8)
    header_index = np.full(len(position), -1)
    end = 0
    for e in range(epochs):
        header_start = end
        end = header_start + headers[e] + n
        in_epoch = (counted > header_start) & (counted <= end)
        epoch[in_epoch] = e + 1
        is_header = in_epoch & nonpass & (counted <= header_start + headers[e])
        header_index[is_header] = counted[is_header] - header_start - 1
    is_header = header_index >= 0

    count = len(indexes)
    deals = np.zeros((count, epochs + 1, SEATS), dtype=np.int16)
    first = np.zeros((count, epochs + 1), dtype=np.int64)
    dealt = is_header & (header_index < (0 if no_luck else players))
    deals[game[dealt], epoch[dealt] - 1, header_index[dealt]] = value[dealt]
    chosen_first = is_header & (epoch == 1) & (header_index == (0 if no_luck else players))
    first[game[chosen_first], 0] = value[chosen_first]
    gold = start_gold[indexes]
    for e in range(1, epochs):
        order = (np.arange(players) - first[:, e - 1, None]) % players
        seat_gold = gold[:, e, :players]
        richest = seat_gold == seat_gold.max(axis=1, keepdims=True)
        first[:, e] = np.argmin(np.where(richest, order, players), axis=1)

    turn_mask = ~is_header
    position, value, game, epoch = (
        position[turn_mask],
        value[turn_mask],
        game[turn_mask],
        epoch[turn_mask],
    )
    turn = _per_group_index(game * (epochs + 1) + epoch)
    seat = (first[game, epoch - 1] + turn) % players
    kind = np.select(
        [value < 4 * n, value < 5 * n, value == pass_], [CASTLE, START, PASS], default=DRAW
    )
    follow = np.minimum(position + (1 if no_luck else 2), len(h) - 1)
    cell = np.select(
        [kind == CASTLE, kind == START, kind == DRAW],
        [value % n, value - 4 * n, h[follow] - 5 * n],
        default=-1,
    )
    drawn_tile = value - 6 * n - 2 if no_luck else h[np.minimum(position + 1, len(h) - 1)]
    piece = np.select(
        [kind == CASTLE, kind == START, kind == DRAW],
        [pieces.CASTLE_BASE + 4 * seat + value // n, deals[game, epoch - 1, seat], drawn_tile],
        default=0,
    )
    action = np.where(kind == DRAW, 5 * n + cell, value)
    legal = _legal_counts(players, rules, game, epoch, seat, kind, piece)
    turns = Turns(
        game=indexes[game],
        epoch=epoch,
        turn=turn + 1,
        seat=seat,
        kind=kind,
        cell=cell,
        piece=piece,
        action=action,
        legal=legal,
        gold_before=gold[game, epoch - 1, seat],
    )
    return turns, deals[:, :epochs]


def replay_turns(game: PlayedGame) -> tuple[list[tuple[int, ...]], list[int]]:
    """The turns of one game replayed through the engine, as (epoch, turn, seat, kind, cell,
    piece, action, legal actions, gold_before) each, and the starting tiles dealt in order."""
    state = Game(game.players, game.rules).new_initial_state()
    n = state.cells
    turns, deals = [], []
    epoch, turn, pending = 0, 0, None
    for action in game.history:
        phase = state.phase
        if phase == DEAL:
            deals.append(action)
        elif phase == TURN:
            seat = state.seat
            if state.epoch != epoch:
                epoch, turn = state.epoch, 0
            turn += 1
            legal, gold = len(state.legal_actions()), state.gold[seat]
            if action < 4 * n:
                row = (CASTLE, action % n, pieces.castle(seat, action // n + 1), action)
                turns.append((epoch, turn, seat, *row, legal, gold))
            elif action < 5 * n:
                row = (START, action - 4 * n, state.start_tiles[seat], action)
                turns.append((epoch, turn, seat, *row, legal, gold))
            elif action == 6 * n + 1:
                turns.append((epoch, turn, seat, PASS, -1, 0, action, legal, gold))
            else:
                pending = (epoch, turn, seat, legal, gold)
        elif phase == PLACE:
            assert pending is not None
            e, t, seat, legal, gold = pending
            row = (DRAW, action - 5 * n, state.pending_tile, action, legal, gold)
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
        rows += [(i, *row) for row in turns]
        deals.append(dealt)
    columns = np.array(rows, dtype=np.int64).reshape(-1, len(Turns.__dataclass_fields__)).T
    return Turns(*columns), deals


def extract_turns(
    games: Sequence[PlayedGame], gains: np.ndarray
) -> tuple[Turns, list[list[int]]]:
    """Every turn of every game (which gained `gains`, as `epoch_gains` gives them), ordered
    by game (batch order), then ply; and per game the starting tiles dealt, seat by seat, epoch
    after epoch."""
    start = np.array([[g.rules.start_gold] * SEATS for g in games], dtype=np.int32)
    start_gold = start[:, None, :] + np.cumsum(np.concatenate([np.zeros_like(gains[:, :1]), gains], 1), 1)
    parts: list[Turns] = []
    groups: dict[tuple[int, RuleSet], list[int]] = {}
    slow = []
    for index, game in enumerate(games):
        if _fast_path(game.rules):
            groups.setdefault((game.players, game.rules), []).append(index)
        else:
            slow.append(index)
    deals: list[list[int]] = [[] for _ in games]
    for indexes in groups.values():
        turns, dealt = _vector_turns(games, np.asarray(indexes), start_gold)
        parts.append(turns)
        if games[indexes[0]].rules.starting_tiles:
            for row, index in enumerate(indexes):
                played = len(games[index].epoch_gains)
                deals[index] = dealt[row, :played, : games[index].players].ravel().tolist()
    if slow:
        turns, dealt = replayed_turns(games, slow)
        parts.append(turns)
        for index, tiles in zip(slow, dealt, strict=True):
            deals[index] = tiles
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


def _int(values: np.ndarray, kind: str, null: np.ndarray | None = None) -> pa.Array:
    return pa.array(values.astype(kind), mask=null)


def _tags(games: Sequence[PlayedGame]) -> pa.MapArray:
    """The records' tags, one map per game (built from flat keys and values: fast)."""
    offsets = np.r_[0, np.cumsum([len(g.tags) for g in games])].astype(np.int32)
    keys = pa.array([key for g in games for key in g.tags], pa.string())
    values = pa.array([value for g in games for value in g.tags.values()], pa.string())
    return pa.MapArray.from_arrays(offsets, keys, values)


def _table(name: str, columns: list[pa.Array]) -> pa.Table:
    return pa.Table.from_arrays(columns, schema=TABLE_SCHEMAS[name])


# ---------------------------------------------------------------------------- the tables


def build_tables(games: Sequence[PlayedGame], created: datetime) -> dict[str, pa.Table]:
    """The stored tables of a batch of games, sorted by game id."""
    ids = np.array([g.game_id for g in games], dtype=np.int64)
    games = [games[i] for i in np.argsort(ids, kind="stable")]
    ids = np.sort(ids)
    count = len(games)
    gains = epoch_gains(games)
    turns, deals = extract_turns(games, gains)
    players = np.array([g.players for g in games])
    epochs = gains.shape[1]

    boards = np.zeros((count * epochs, 30), dtype=np.int16)
    placed = turns.kind != PASS
    board_row = turns.game * epochs + turns.epoch - 1
    boards[board_row[placed], turns.cell[placed]] = turns.piece[placed]
    scores = score_boards(boards)

    played_epochs = np.array([len(g.epoch_gains) for g in games])
    start = np.array([g.rules.start_gold for g in games])
    final = start[:, None] + gains.sum(axis=1)

    tables = {
        "games": _games_table(games, ids, turns, deals, created),
        "seats": _seats_table(games, ids, players, final, turns),
        "moves": _moves_table(ids, turns, players, board_row, scores),
        "epoch_scores": _epoch_table(ids, players, played_epochs, gains, start),
    }
    return tables


def _games_table(games, ids, turns: Turns, deals, created: datetime) -> pa.Table:
    count = len(games)
    plies = np.bincount(turns.game, minlength=count)
    first_turns = np.r_[0, np.cumsum(plies)[:-1]]
    first_seat = turns.seat[np.minimum(first_turns, max(len(turns.seat) - 1, 0))]
    editions = sorted({g.rules.edition for g in games})
    variants = sorted({g.rules.variant_text() for g in games})
    seeds = np.array([g.seed if g.seed is not None else 0 for g in games], dtype=np.int64)
    return _table(
        "games",
        [
            pa.array(ids),
            _dictionary(np.array([editions.index(g.rules.edition) for g in games]), editions),
            _dictionary(
                np.array([variants.index(g.rules.variant_text()) for g in games]), variants
            ),
            _int(np.array([g.players for g in games]), "int8"),
            pa.array(seeds, mask=np.array([g.seed is None for g in games])),
            _dictionary(first_seat, SEAT_NAMES),
            _int(plies, "int16"),
            pa.array([created] * count, type=pa.timestamp("ms", tz="UTC")),
            _dictionary(np.zeros(count), [ENGINE_VERSION]),
            _tags(games),
            pa.array(deals, type=pa.list_(pa.uint8())),
        ],
    )


def _seats_table(games, ids, players, final, turns: Turns) -> pa.Table:
    mask = np.arange(SEATS) < players[:, None]  # (G, SEATS)
    gold = np.where(mask, final, np.iinfo(np.int32).min)
    above = (gold[:, None, :] > gold[:, :, None]).sum(axis=2)
    ties = (gold[:, None, :] == gold[:, :, None]).sum(axis=2)
    rank = 1 + above + (ties - 1) / 2
    best = gold.max(axis=1, keepdims=True)
    winners = (gold == best).sum(axis=1, keepdims=True)
    win_share = np.where(gold == best, 1.0 / winners, 0.0)
    utility = 1 - 2 * (rank - 1) / (players[:, None] - 1)
    others = np.where(np.eye(SEATS, dtype=bool)[None], np.iinfo(np.int32).min, gold[:, None, :])
    margin = gold - others.max(axis=2)
    first_turn = np.r_[0, np.cumsum(np.bincount(turns.game, minlength=len(games)))[:-1]]
    first = turns.seat[np.minimum(first_turn, max(len(turns.seat) - 1, 0))]
    position = (np.arange(SEATS) - first[:, None]) % players[:, None] + 1

    game_index, seat = np.nonzero(mask)
    names = [games[g].players_names[s] for g, s in zip(game_index, seat, strict=True)]
    agents = sorted({a for g in games for a in g.agents if a})
    agent_codes = np.array(
        [
            agents.index(games[g].agents[s]) if games[g].agents[s] else 0
            for g, s in zip(game_index, seat, strict=True)
        ],
        dtype=np.int8,
    )
    no_agent = np.array([games[g].agents[s] is None for g, s in zip(game_index, seat, strict=True)])
    return _table(
        "seats",
        [
            pa.array(ids[game_index]),
            _dictionary(seat, SEAT_NAMES),
            pa.array(names, type=pa.string()),
            _dictionary(agent_codes, agents or [""], no_agent),
            _int(position[game_index, seat], "int8"),
            _int(final[game_index, seat], "int16"),
            _int(rank[game_index, seat], "float32"),
            _int(win_share[game_index, seat], "float32"),
            _int(utility[game_index, seat], "float32"),
            _int(margin[game_index, seat], "int16"),
        ],
    )


def _moves_table(ids, turns: Turns, players, board_row, scores: BoardScores) -> pa.Table:
    """The turns as small integer codes (see data/schema.py), each placement with what it
    scored on the epoch's final board: a castle's effective rank and row and column gold, a
    tile's impact on every seat."""
    cell = np.maximum(turns.cell, 0)
    castle = turns.kind == CASTLE
    effective = scores.effective_rank[board_row, cell] * castle
    tile = (turns.kind == DRAW) | (turns.kind == START)
    seated = np.arange(SEATS) < players[turns.game][:, None]
    impacts = np.where(tile[:, None] & seated, scores.impacts[board_row, cell], NO_IMPACT)
    return _table(
        "moves",
        [
            pa.array(ids[turns.game]),
            _int(turns.epoch, "int8"),
            _int(_per_group_index(turns.game) + 1, "int16"),
            _int(turns.turn, "int8"),
            _int(turns.seat, "int8"),
            _int(turns.kind, "int8"),
            _int(turns.cell, "int8"),
            _int(turns.piece, "int8"),
            _int(turns.legal, "int16"),
            _int(turns.gold_before, "int16"),
            _int(effective, "int8"),
            _int(scores.row_base[board_row, cell] * effective, "int16"),
            _int(scores.column_base[board_row, cell] * effective, "int16"),
            *(_int(impacts[:, s], "int16") for s in range(SEATS)),
        ],
    )


def _epoch_table(ids, players, played_epochs, gains, start) -> pa.Table:
    epochs = gains.shape[1]
    mask = (np.arange(epochs)[None, :, None] < played_epochs[:, None, None]) & (
        np.arange(SEATS)[None, None, :] < players[:, None, None]
    )
    after = start[:, None, None] + np.cumsum(gains, axis=1)
    game_index, epoch, seat = np.nonzero(mask)
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
