"""Turn played games into the lake's tables (Arrow), many games at a time.

The games arrive as a batch (data/played.py): their actions and who played them. The kernel
replays every game of a batch in one compiled pass (engine/kernel/replay.py): the turns, with
how many legal actions each mover had, the deals, every epoch's scored board and the gains.
The rest (castles, impacts, seats) is computed from those arrays for the whole batch at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numba
import numpy as np
import pyarrow as pa

from data.played import PlayedGames, Setups
from data.schema import ENGINE_VERSION, KINDS, TABLE_SCHEMAS, VALUE_OFFSET, grid_codes
from engine import facts, moves, pieces
from engine.kernel.batch import SEATS, BoardScores, score_boards
from engine.kernel.replay import (
    TURN_COLUMNS,
    Replayed,
    ReplayedTurns,
    ReplayError,
    replay_games,
)
from engine.outcome import seat_outcomes
from engine.rules import RuleSet, rule_text, rules_hash

CASTLE, DRAW, START = (KINDS.index(kind) for kind in ("castle", "draw", "start"))


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


def _table(name: str, columns: list[pa.Array]) -> pa.Table:
    return pa.Table.from_arrays(columns, schema=TABLE_SCHEMAS[name])


# ---------------------------------------------------------------------------- the tables


def build_tables(games: PlayedGames, created: datetime) -> dict[str, pa.Table]:
    """The stored tables of a batch of games, sorted by game id (the games replayed by the
    kernel); ReplayError, naming the game, for one whose actions the rules refuse."""
    games = games[np.argsort(games.ids, kind="stable")]
    ids, setups, count = games.ids, games.setups, len(games)
    players = setups.per_game(lambda players, _: players, np.int64)
    replayed = _replay(games)
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
    return {
        "games": _games_table(games, players, plies, first_seat, deals, created),
        "seats": _seats_table(games, players, final, first_seat),
        "moves": _moves_table(ids, turns, players, board, scores, setups),
        "epoch_scores": _epoch_table(ids, played, gains, start),
        "rule_sets": _rule_sets_table(setups),
    }


def _replay(games: PlayedGames) -> Replayed:
    """Every game's actions replayed by the kernel, its turns' kinds coded as `moves` stores
    them; ReplayError naming the game id for a list the rules refuse."""
    setups = games.setups
    try:
        replayed = replay_games(setups.distinct, setups.code, games.actions, games.offsets)
    except ReplayError as error:
        raise ReplayError(error.game, error.ply, error.reason, games.ids[error.game]) from None
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


def _games_table(games: PlayedGames, players, plies, first_seat, deals, created) -> pa.Table:
    count, setups = len(games), games.setups
    editions = sorted({rules.edition for _, rules in setups.distinct})
    variants = sorted({rules.variant_text() for _, rules in setups.distinct})
    edition = setups.per_game(lambda _, rules: editions.index(rules.edition))
    variant = setups.per_game(lambda _, rules: variants.index(rules.variant_text()))
    hashes = sorted({rules_hash(rules) for _, rules in setups.distinct})
    rules_code = setups.per_game(lambda _, rules: hashes.index(rules_hash(rules)), np.int16)
    actions = games.actions.astype("<u2")  # two bytes each: a board of 8 × 8 has 418 actions
    return _table(
        "games",
        [
            pa.array(games.ids),
            _dictionary(edition, editions),
            _dictionary(variant, variants),
            _int(players, "int8"),
            games.seeds,
            _dictionary(first_seat, pieces.SEAT_LETTERS),
            _int(plies, "int16"),
            pa.repeat(pa.scalar(created, pa.timestamp("ms", tz="UTC")), count),
            _dictionary(np.zeros(count), [ENGINE_VERSION]),
            games.tags,
            _deals(deals),
            games.unseen_starts,
            pa.BinaryArray.from_buffers(
                pa.binary(),
                count,
                [None, pa.py_buffer(2 * games.offsets.astype(np.int32)), pa.py_buffer(actions)],
            ),
            pa.DictionaryArray.from_arrays(pa.array(rules_code), pa.array(hashes, pa.string())),
        ],
    )


def _rule_sets_table(setups: Setups) -> pa.Table:
    """Each rule set the games follow, once: its hash, name, canonical text and board."""
    rule_sets = {rules_hash(rules): rules for _, rules in setups.distinct}
    ordered = [rule_sets[hashed] for hashed in sorted(rule_sets)]
    return _table(
        "rule_sets",
        [
            pa.array(sorted(rule_sets), pa.string()),
            pa.array([rules.name for rules in ordered], pa.string()),
            pa.array([rule_text(rules) for rules in ordered], pa.string()),
            pa.array([rules.rows for rules in ordered], pa.int8()),
            pa.array([rules.columns for rules in ordered], pa.int8()),
            pa.array([_tile_kinds(rules) for rules in ordered], pa.list_(pa.string())),
        ],
    )


def _tile_kinds(rules: RuleSet) -> list[str]:
    return [pieces.piece_token(code) for code in sorted(set(rules.tiles))]


def _seats_table(games: PlayedGames, players, final, first_seat) -> pa.Table:
    outcome = seat_outcomes(final, players)
    game_index, seat = np.nonzero(outcome.seated)  # game by game, seat by seat
    position = facts.turn_position(seat, first_seat[game_index], players[game_index])
    rank, win_share, utility, margin = (
        column[outcome.seated]
        for column in (outcome.rank, outcome.win_share, outcome.utility, outcome.margin)
    )
    names = [name for line_up, _ in games.line_ups for name in line_up]
    seat_agents = [agent for _, line_up in games.line_ups for agent in line_up]
    first = np.r_[0, np.cumsum([len(line_up) for line_up, _ in games.line_ups])]
    at = pa.array(first[games.line_up[game_index]] + seat)  # each row's seat among the line-ups'
    agents = sorted({a for a in seat_agents if a})
    code: dict[str | None, int] = {agent: index for index, agent in enumerate(agents)}
    agent_codes = np.array([code.get(agent, 0) for agent in seat_agents], dtype=np.int8)
    no_agent = np.array([agent is None for agent in seat_agents], dtype=bool)
    return _table(
        "seats",
        [
            pa.array(games.ids[game_index]),
            _dictionary(seat, pieces.SEAT_LETTERS),
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


def _moves_table(
    ids, turns: ReplayedTurns, players, board, scores: BoardScores, setups: Setups
) -> pa.Table:
    """The turns as small integer codes (see data/schema.py: a cell coded on the largest board),
    each placement with what it scored on the epoch's final board: a castle's row and column
    gold and effective rank, a tile's impact on every seat."""
    values = np.zeros((SEATS, len(turns.kind)), dtype=np.uint16)
    rank = scores.effective_rank
    row_gold, column_gold = (
        facts.castle_gold(base, rank) for base in (scores.row_base, scores.column_base)
    )
    _placement_values(
        turns.kind,
        turns.cell,
        board,
        players[turns.game],
        rank,
        row_gold,
        column_gold,
        scores.impacts,
        values,
    )
    columns = setups.per_game(lambda _, rules: rules.columns, np.int64)[turns.game]
    stored = {name: getattr(turns, name) for name in TURN_COLUMNS[1:]}
    stored["cell"] = grid_codes(turns.cell, columns).astype(turns.cell.dtype)
    return _table(
        "moves",
        [
            pa.array(ids[turns.game]),
            # then every turn column but the game index, in the order `moves` stores them
            *(pa.array(stored[name]) for name in TURN_COLUMNS[1:]),
            *(pa.array(column) for column in values),
        ],
    )


@numba.njit(cache=True)
def _placement_values(kind, cell, board_row, players, rank, row_gold, column_gold, impacts, values):
    """What every placement scored on its epoch's final board, stored as data/schema.py says:
    a castle's row and column gold (+ offset) and effective rank, a tile's impact on each
    seated player (+ offset)."""
    for i in range(len(kind)):
        board, c = board_row[i], cell[i]
        if kind[i] == CASTLE:
            values[0, i] = row_gold[board, c] + VALUE_OFFSET
            values[1, i] = column_gold[board, c] + VALUE_OFFSET
            values[2, i] = rank[board, c]
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
            _dictionary(seat, pieces.SEAT_LETTERS),
            _int(gains[game_index, epoch, seat], "int16"),
            _int(after[game_index, epoch, seat], "int16"),
        ],
    )
