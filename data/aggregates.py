"""The aggregates of a batch (counts, sums and sums of squares by every filter dimension), each
defined by its SQL in data/aggregates/ and computed here from the batch's Arrow tables."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from functools import cache, cached_property

import duckdb
import numba
import numpy as np
import pyarrow as pa

from data.grouping import (
    Key,
    aggregate,
    column_key,
    combined,
    composite,
    game_sums,
    grouped_table,
    key,
    mapped,
    number_groups,
    numbers,
    relabel,
    rolled,
    stacked_table,
    sum_groups,
    take,
)
from data.levels import game_levels_sql
from data.schema import (
    AGGREGATE_DIR,
    CELL_NAMES,
    KINDS,
    PLACEMENT_COLUMNS,
    TABLE_SCHEMAS,
    VALUE_OFFSET,
    aggregate_names,
    board_cells,
    piece_tokens,
)
from data.views import game_view_statements, without_partitions
from engine import pieces

PASS = KINDS.index("pass")  # a stored move's kind code for a pass
TILES = ("draw", "start")  # the kinds of move that place a tile


def batch_connection(tables: dict[str, pa.Table]) -> duckdb.DuckDBPyConnection:
    """The lake's views over one batch's tables, held in memory."""
    con = duckdb.connect(":memory:", config={"threads": 1})
    for name in TABLE_SCHEMAS:
        con.register(f"staged_{name}", tables[name])
    sources = {name: without_partitions(f"staged_{name}") for name in TABLE_SCHEMAS}
    for statement in game_view_statements(sources):
        con.execute(statement)
    return con


@cache
def _process_database(pid: int) -> duckdb.DuckDBPyConnection:
    """An empty in-memory database of this process (by its id: a forked worker opens its own),
    whose cursors each batch's levels are read with."""
    return duckdb.connect(":memory:", config={"threads": 1})


@cache
def aggregate_schemas() -> dict[str, pa.Schema]:
    """The columns of every aggregate: what its SQL gives on an empty batch."""
    con = batch_connection({name: schema.empty_table() for name, schema in TABLE_SCHEMAS.items()})
    schemas = {}
    for name in aggregate_names():
        sql = (AGGREGATE_DIR / f"{name}.sql").read_text()
        schemas[name] = con.sql(sql).to_arrow_table().schema
    con.close()
    return schemas


def _aggregate(name: str, keys: Sequence[Key], sums: Sequence[np.ndarray]) -> pa.Table:
    """The aggregate `name`: a row per distinct combination of the keys, its count and sums."""
    return aggregate(aggregate_schemas()[name], keys, sums)


# ---------------------------------------------------------------------------- one batch


class _Batch:
    """A batch's tables with every row tied to its game and seat."""

    def __init__(self, tables: dict[str, pa.Table]) -> None:
        self.games, self.seats = tables["games"], tables["seats"]
        self.moves, self.epoch_scores = tables["moves"], tables["epoch_scores"]
        ids = self.games["game_id"].to_numpy()
        self._order = np.argsort(ids, kind="stable")
        self._sorted_ids = ids[self._order]
        self.seat_game = self.game_of(self.seats)
        self.seat_letter = self.letter(self.seats)
        self.seat_row = np.full((len(ids), pieces.MAX_SEATS), -1)
        self.seat_row[self.seat_game, self.seat_letter] = np.arange(len(self.seat_game))
        self.win_share = self.seats["win_share"].to_numpy()
        self.players = self.games["players"].to_numpy().astype(np.int64)
        self.rule_set = column_key(self.games, "rules")
        self.rule_sets = tables["rule_sets"]
        self.rules = composite(  # each game's rules, play level and date
            [
                *(column_key(self.games, c) for c in ("edition", "variant", "players")),
                self._levels(),
                column_key(self.games, "created"),
                column_key(self.games, "rules"),
            ]
        )
        self.owner = composite(  # each seat's rules and date, agent and player
            [
                take(self.rules, self.seat_game),
                column_key(self.seats, "agent"),
                column_key(self.seats, "player"),
            ]
        )
        self.move_game = self.game_of(self.moves)
        self.move_letter = self.moves["seat"].to_numpy().astype(np.int64)
        seat_at = self.move_game * pieces.MAX_SEATS + self.move_letter
        self.move_seat = self.seat_row.ravel()[seat_at]
        self.kind = self._coded("kind", KINDS)
        self.cell = self._coded("cell", CELL_NAMES)
        self.piece = self._coded("piece", piece_tokens())
        self.epoch = self.moves["epoch"].to_numpy()
        turn = self.moves["turn"].to_numpy().astype(np.int64)
        self.turn = turn
        # moves come game by game, turn by turn from 1: an epoch's last row (the one before
        # a turn 1, or the very last) holds its turn count
        ends = np.r_[np.flatnonzero(turn[1:] == 1), len(turn) - 1]
        ends = ends[ends >= 0]  # none without moves
        self.epoch_turns = np.repeat(turn[ends], np.diff(np.r_[-1, ends]))
        # every move's keys, read by the aggregates at the rows they group
        self.move_owner = take(self.owner, self.move_seat)
        self.move_epoch = numbers("epoch", self.epoch, pa.int8())

    def _levels(self) -> Key:
        """Each game's play level, read through the lake's own rule (data/levels.py)."""
        con = _process_database(os.getpid()).cursor()  # opening a database costs ~20 ms
        con.register("batch_seats", self.seats.select(["game_id", "agent"]))
        levels = con.sql(game_levels_sql("batch_seats")).to_arrow_table()
        con.close()
        level = column_key(levels, "level")
        codes = np.zeros(self.games.num_rows, dtype=np.int64)
        codes[self.game_of(levels)] = level.codes
        return Key(codes, level.values)

    @cached_property
    def timing(self) -> Key:
        """When in its epoch each move came, in fifths: 1 + ⌊5 (turn - 1) / turns⌋ (worked out
        in floating point, which is exact here and vectorises, unlike integer division)."""
        fifths = ((self.turn - 1) * 5 / self.epoch_turns).astype(np.int64) + 1
        return numbers("timing", fifths, pa.int8())

    @cached_property
    def placed_by(self) -> Key:
        return relabel(self.kind, "placed_by", lambda kind: "drawn" if kind == "draw" else "start")

    @cached_property
    def seat_owner(self) -> Key:
        """Each seat's agent and player (without the game's rules, which group apart)."""
        return composite([column_key(self.seats, "agent"), column_key(self.seats, "player")])

    @cached_property
    def played(self) -> np.ndarray:
        """Which epochs each game played (has scores of): a row per game, a column per epoch."""
        epoch = self.epoch_scores["epoch"].to_numpy()
        played = np.zeros((self.games.num_rows, int(epoch.max(initial=0)) + 1), dtype=bool)
        played[self.game_of(self.epoch_scores), epoch] = True
        return played

    @cached_property
    def game_epochs(self) -> np.ndarray:
        """Each game's epochs: how many it played."""
        return self.played.sum(axis=1)

    @cached_property
    def seated(self) -> np.ndarray:
        """Which agent and player (seat_owner) sits at each game: a row per game."""
        seated = np.zeros((self.games.num_rows, self.seat_owner.values.num_rows), dtype=bool)
        seated[self.seat_game, self.seat_owner.codes] = True
        return seated

    @cached_property
    def seats_alike(self) -> np.ndarray:
        """Whether each game has one agent and player at every seat."""
        return self.seated.sum(axis=1) == 1

    @cached_property
    def move_rules(self) -> Key:
        """Each move's game's rules, play level and date."""
        return take(self.rules, self.move_game)

    @cached_property
    def move_seat_owner(self) -> Key:
        """Each move's seat's agent and player."""
        return take(self.seat_owner, self.move_seat)

    @cached_property
    def mirror_codes(self) -> np.ndarray:
        """Each move's cell as the first cell of its mirror class on its game's board, coded as
        stored (-1, no cell, stays)."""
        boards = self.rule_sets.to_pydict()
        sizes = dict(
            zip(boards["rules"], zip(boards["rows"], boards["columns"], strict=True), strict=True)
        )
        firsts = np.array(
            [
                _mirror_firsts(*sizes.get(rules, (0, 0)))
                for rules in self.rule_set.single.to_pylist()
            ]
        ).reshape(-1, len(CELL_NAMES))
        board = self.rule_set.codes[self.move_game]
        return np.where(self.cell.codes < 0, -1, firsts[board, self.cell.codes])

    @cached_property
    def tile_impacts(self) -> tuple[np.ndarray, np.ndarray]:
        """Each tile placed (moves_of(TILES)): its impact on its placer, and the mean of its
        impacts on the others."""
        rows = self.moves_of(TILES)
        stored = np.stack([self.moves[c].to_numpy()[rows] for c in PLACEMENT_COLUMNS])
        impacts = np.where(stored > 0, stored.astype(np.float64) - VALUE_OFFSET, 0.0)
        own = impacts[self.move_letter[rows], np.arange(len(rows))]
        opponent = (impacts.sum(axis=0) - own) / (self.players[self.move_game[rows]] - 1)
        return own, opponent

    def _coded(self, name: str, values: Sequence[str | None] | pa.Array) -> Key:
        """A stored code column of `moves` as a key (codes index `values`)."""
        return key(name, self.moves[name].to_numpy(), pa.array(values, pa.string()))

    def game_of(self, table: pa.Table) -> np.ndarray:
        """Each row's game (its row in `games`), looked up once per run of equal ids."""
        ids = table["game_id"].to_numpy()
        heads = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        games = self._order[np.searchsorted(self._sorted_ids, ids[heads])]
        return np.repeat(games, np.diff(np.r_[heads, len(ids)]))

    @staticmethod
    def letter(table: pa.Table) -> np.ndarray:
        """Each row's seat (its `seat` letter) as 0–3."""
        letters = pieces.SEAT_LETTERS
        return mapped(column_key(table, "seat"), lambda s: letters.index(s) if s else 0)

    def owner_keys(self, seats: np.ndarray) -> list[Key]:
        """The seats' game's rules and date, then their agent and player."""
        return [take(self.owner, seats)]

    def is_kind(self, kinds: tuple[str, ...]) -> np.ndarray:
        """Which moves are of these kinds."""
        return mapped(self.kind, lambda kind: kind in kinds, bool)

    def moves_of(self, kinds: tuple[str, ...]) -> np.ndarray:
        return np.nonzero(self.is_kind(kinds))[0]


@cache
def _mirror_firsts(rows: int, columns: int) -> np.ndarray:
    """For every stored cell code, the code of its mirror class's first cell on a board of this
    size (data/schema.py `board_cells`; a code off the board maps to itself)."""
    firsts = np.arange(len(CELL_NAMES))
    if rows and columns:
        for cell, mirror in board_cells(rows, columns):
            firsts[CELL_NAMES.index(cell)] = CELL_NAMES.index(mirror)
    return firsts


def _castles(batch: _Batch) -> pa.Table:
    rows = batch.moves_of(("castle",))
    gold = sum(batch.moves[c].to_numpy()[rows].astype(np.float64) for c in PLACEMENT_COLUMNS[:2])
    gold -= 2 * VALUE_OFFSET
    unit = gold / batch.moves[PLACEMENT_COLUMNS[2]].to_numpy()[rows]
    win = batch.win_share[batch.move_seat[rows]]
    rank = relabel(batch.piece, "rank", _castle_rank, pa.int8())
    return _by_game("agg_castles", batch, rows, [rank], _cell_scopes(batch), [gold, unit, win])


def _castle_rank(token: str | None) -> int:
    piece = pieces.parse_piece(token) if token else pieces.EMPTY
    return pieces.castle_rank(piece) if pieces.is_castle(piece) else 0


def _piece_kind(token: str | None) -> str | None:
    """What fills a cell, as the engine names it (engine/pieces.py `piece_kind`)."""
    return pieces.piece_kind(pieces.parse_piece(token)) if token else None


def _cells(batch: _Batch) -> pa.Table:
    """Every piece placed, each with when in its epoch it came and its game's epochs."""
    rows = batch.moves_of(("castle", *TILES))
    fill = (batch.turn[rows] - 1) / np.maximum(batch.epoch_turns[rows] - 1, 1)
    kind = relabel(batch.piece, "piece_kind", _piece_kind)
    scopes = [(None, batch.cell)]
    epochs = batch.game_epochs[batch.move_game[rows]]
    return _by_game("agg_cells", batch, rows, [kind], scopes, [fill], [epochs])


def _epochs(batch: _Batch) -> pa.Table:
    """Per game, each seat's agent and player at it (once each) or every seat, and each epoch
    it played or every one: the game, and its epochs (1 for one epoch) and their square."""
    owners = batch.seat_owner.values
    seated = batch.seated & (batch.game_epochs > 0)[:, None]  # a game counts by its epochs
    seat_game, seat_owner = np.nonzero(seated)  # (game, owner), game by game
    every_game = np.nonzero(seated.any(axis=1))[0]
    tables = []
    for seats_kept, epochs_kept in itertools.product((True, False), repeat=2):
        game = seat_game if seats_kept else every_game
        owner = seat_owner if seats_kept else np.zeros(len(game), dtype=np.int64)
        count = batch.game_epochs[game]
        if epochs_kept:  # a row per epoch the game played, which counts 1
            at = np.repeat(np.arange(len(game)), count)
            epochs = numbers("epoch", np.nonzero(batch.played[game])[1], pa.int8())
            game, owner, count = game[at], owner[at], np.ones(len(at), dtype=np.int64)
        else:
            epochs = rolled(numbers("epoch", np.zeros(len(game), dtype=np.int64), pa.int8()))
        seats = Key(owner, owners) if seats_kept else rolled(Key(owner, owners))
        keys = [
            take(batch.rules, game),
            _flag("all_seats", not seats_kept, len(game)),
            _flag("all_epochs", not epochs_kept, len(game)),
            seats,
            epochs,
        ]
        tables.append(_aggregate("agg_epochs", keys, [count, count**2]))
    return pa.concat_tables(tables)


def _flag(name: str, value: bool, rows: int) -> Key:
    """A key of one value for every row."""
    return Key(np.zeros(rows, dtype=np.int64), pa.table({name: [value]}))


def _scores(batch: _Batch) -> pa.Table:
    final = batch.seats["final_gold"].to_numpy()
    margin = batch.seats["margin"].to_numpy()
    every = np.arange(len(final))
    seat = np.concatenate([every, every, every[margin >= 0]])
    value = np.concatenate([final, margin, margin[margin >= 0]]).astype(np.int64)
    low = value.min(initial=0)
    metric = np.repeat([0, 1, 2], [len(final), len(final), int((margin >= 0).sum())])
    keys = batch.owner_keys(seat)
    keys += [
        key("metric", metric, ["final_gold", "margin", "victory_margin"]),
        numbers("value", value - low, pa.int16(), low),
    ]
    return _aggregate("agg_scores", keys, [])


def _seats(batch: _Batch) -> pa.Table:
    every = np.arange(batch.seats.num_rows)
    keys = batch.owner_keys(every)
    keys += [column_key(batch.seats, "seat"), column_key(batch.seats, "turn_position")]
    partial = (batch.seats["utility"].to_numpy() + 1) / 2
    win = batch.win_share
    return _aggregate("agg_seats", keys, [win, win**2, partial, partial**2])


def _tile_cells(batch: _Batch) -> pa.Table:
    own, opponent = batch.tile_impacts
    values = [own, opponent, own - opponent]
    return _by_game("agg_tile_cells", batch, batch.moves_of(TILES), [], _cell_scopes(batch), values)


def _tile_kinds(batch: _Batch) -> pa.Table:
    own, opponent = batch.tile_impacts
    values = [own, opponent, own - opponent]
    kinds, scopes = [batch.timing, batch.placed_by], [(None, batch.piece)]
    return _by_game("agg_tile_kinds", batch, batch.moves_of(TILES), kinds, scopes, values)


CELL_SCOPES = ("cell", "mirror", "board")  # a cell, a cell with its mirror images, the board


def _cell_scopes(batch: _Batch) -> list[tuple[str | None, Key]]:
    """Each move's cell, the first cell of its mirror class, and the board (one for all)."""
    mirrored = Key(batch.mirror_codes, batch.cell.values)
    return list(zip(CELL_SCOPES, [batch.cell, mirrored, rolled(batch.cell)], strict=True))


def _by_game(
    name: str,
    batch: _Batch,
    rows: np.ndarray,
    kinds: list[Key],
    scopes: Sequence[tuple[str | None, Key]],
    values: list,
    plain: Sequence[np.ndarray] = (),
) -> pa.Table:
    """An aggregate with the game as the unit (data/aggregates/agg_castles.sql): for every
    scope (a key, named in `cell_scope` unless its name is None), and every seat, epoch and
    each of `kinds` or one of them, the sums over the games of each game's count n_g and sums
    S_g of the `values` of its `rows`; then the sums over the rows of `plain`."""
    rules = batch.move_rules
    rollable = [batch.move_seat_owner, batch.move_epoch, *kinds]
    rolled_up = [rolled(k) for k in rollable]  # once: a rolled key is as long as the moves
    one = np.zeros(len(rules.codes), dtype=np.int64)  # the code of a key of one value
    fine_keys = [rules, *rollable, *(k for _, k in scopes)]
    fine, fine_rows, fine_counts = number_groups(*combined(fine_keys, rows))
    flags = {
        (i, k): Key(one, pa.table({f"all_{i}": [not k]}))
        for i in range(len(rollable))
        for k in (True, False)
    }
    patterns: list[tuple[list[Key], np.ndarray, int, int]] = []  # keys, a row a group, where
    groups_of, offset, seat_pairs = [], 0, []  # each fine group's groups; the patterns by seat
    for scope, cells in scopes:
        for kept in itertools.product((True, False), repeat=len(rollable)):
            if not kept[0]:  # its partner: the same pattern but keeping the seat
                seat_pairs.append((len(patterns) - 2 ** (len(rollable) - 1), len(patterns)))
            keys = [rules]
            keys += [Key(one, pa.table({"cell_scope": [scope]}))] if scope else []
            keys += [flags[i, k] for i, k in enumerate(kept)]
            keys += [k if keep else r for k, r, keep in zip(rollable, rolled_up, kept, strict=True)]
            keys.append(cells)
            local, first, _ = number_groups(*combined(keys, rows[fine_rows]))
            patterns.append((keys, fine_rows[first], offset, len(first)))
            groups_of.append(local + offset)
            offset += len(first)
    group_of = np.stack(groups_of, axis=1)  # a row per fine group: its group in each pattern
    row_values = np.empty((len(rows), len(values)))  # a row of values per row
    for column, value in enumerate(values):
        row_values[:, column] = value
    partner = np.full(offset, -1)
    for seat_kept, seat_rolled in seat_pairs:
        partner[group_of[:, seat_kept]] = group_of[:, seat_rolled]
    alike_patterns = np.array([kept for kept, _ in seat_pairs])
    squares = game_sums(
        batch.move_game[rows],
        fine,
        group_of,
        offset,
        row_values,
        batch.seats_alike,
        alike_patterns,
        partner,
    )
    # the sums over rows: by fine group, then into each group of every pattern
    by_fine = [np.bincount(fine, v, len(fine_rows)) for v in (*values, *plain)]
    fine_sums = np.vstack([fine_counts, *by_fine])
    sums = sum_groups(group_of.ravel(), offset, np.repeat(fine_sums.T, len(patterns), axis=0))
    columns = [sums[0], squares[0], squares[1]]  # rows, games, Σ n_g²
    for v in range(len(values)):  # Σ S_g, Σ S_g², Σ S_g n_g
        columns += [sums[1 + v], squares[2 + 2 * v], squares[3 + 2 * v]]
    totals = np.vstack([*columns, *sums[1 + len(values) :]])
    parts = [
        (keys, rows[chosen], totals[0, at : at + size], totals[1:, at : at + size])
        for keys, chosen, at, size in patterns
    ]
    return stacked_table(aggregate_schemas()[name], parts)


def _tile_use(batch: _Batch) -> pa.Table:
    rows = batch.moves_of(TILES)
    tokens = [pieces.piece_token(code) for code in pieces.TILE_KINDS]
    tile = mapped(batch.piece, lambda t: tokens.index(t) if t in tokens else -1)[rows]
    seats = np.arange(batch.seats.num_rows)
    owner, first, _ = number_groups(*combined(batch.owner_keys(seats), seats))
    rule_sets = batch.rule_sets.to_pydict()
    tile_sets = dict(zip(rule_sets["rules"], rule_sets["tiles"], strict=True))
    in_set = np.array(  # per rule set of the batch, which tile kinds its tile set has
        [
            [token in tile_sets.get(hashed, ()) for token in tokens]
            for hashed in batch.rule_set.single.to_pylist()
        ],
        dtype=bool,
    ).reshape(-1, len(tokens))
    has_tile = in_set[batch.rule_set.codes[batch.seat_game]]
    sums = _tile_use_sums(owner, len(first), batch.win_share, has_tile, batch.move_seat[rows], tile)
    owners, kinds, placed = np.nonzero(sums[0])  # the groups: (owner, tile kind, placed)
    keys = batch.owner_keys(first[owners])
    keys += [key("tile", kinds, tokens), key("placed", placed, [False, True])]
    totals = sums[:, owners, kinds, placed]
    schema = aggregate_schemas()["agg_tile_use"]
    return grouped_table(schema, keys, np.arange(len(owners)), totals[0], totals[1:])


@numba.njit(cache=True)
def _tile_use_sums(owner, owners, win_share, has_tile, placer, tile):
    """Per owner, tile kind and whether the seat placed it: the seats, their win shares and the
    squares (every seat once per tile kind its game's edition has, `has_tile`)."""
    kinds = has_tile.shape[1]
    placed = np.zeros((len(owner), kinds), dtype=np.int64)
    for i in range(len(tile)):
        if tile[i] >= 0:
            placed[placer[i], tile[i]] = 1
    sums = np.zeros((3, owners, kinds, 2), dtype=np.float64)
    for seat in range(len(owner)):
        win = float(win_share[seat])
        for kind in range(kinds):
            if not has_tile[seat, kind]:
                continue
            group = (owner[seat], kind, placed[seat, kind])
            sums[0][group] += 1
            sums[1][group] += win
            sums[2][group] += win * win
    return sums


def _games(batch: _Batch) -> pa.Table:
    count = batch.games.num_rows
    epoch = batch.epoch_scores["epoch"].to_numpy().astype(np.int64)
    epochs = max(int(epoch.max(initial=0)), 3) + 1  # epochs 1-3 at least: comebacks, leaders
    leads, last = _standings(
        batch.game_of(batch.epoch_scores),
        epoch,
        batch.letter(batch.epoch_scores),
        batch.epoch_scores["gold_after"].to_numpy(),
        count,
        epochs,
    )
    present = leads > 0
    kept_lead = (leads[:, 1:] & leads[:, :-1]) > 0  # a seat leads after an epoch and the next
    changes = (present[:, 1:] & present[:, :-1] & ~kept_lead).sum(axis=1)

    seat_game, seat_letter = batch.seat_game, batch.seat_letter
    agent = column_key(batch.seats, "agent")
    agent_codes = agent.codes
    names = [name or "people" for name in agent.single.to_pylist()]
    line_ups = np.zeros(count, dtype=np.int64)
    np.bitwise_or.at(line_ups, seat_game, 1 << agent_codes)
    line_up_masks, line_up_codes = np.unique(line_ups, return_inverse=True)
    line_up_names = [
        ", ".join(sorted({n for bit, n in enumerate(names) if mask >> bit & 1}))
        for mask in line_up_masks.tolist()
    ]
    margin = batch.seats["margin"].to_numpy().astype(np.float64)
    victory_margin = np.full(count, -np.inf)
    np.maximum.at(victory_margin, seat_game, margin)
    early_last = (((last[seat_game, 1] | last[seat_game, 2]) >> seat_letter) & 1) > 0
    comeback = np.zeros(count, dtype=np.int64)
    np.bitwise_or.at(comeback, seat_game, ((batch.win_share > 0) & early_last).astype(np.int64))

    plies = _move_counts(
        batch.move_game,
        batch.epoch,
        batch.kind.codes,
        batch.moves["legal_actions"].to_numpy(),
        count,
    )

    whole = present.any(axis=1) & np.isfinite(victory_margin) & (plies[:, :4].sum(axis=1) > 0)
    kept = np.nonzero(whole)[0]  # games with scores, seats and moves, as the SQL's joins
    keys = [take(batch.rules, kept)]
    keys += [
        key("agents", line_up_codes[kept], line_up_names),
        numbers("lead_changes", changes[kept], pa.int8()),
        key("comeback", comeback[kept], [False, True]),
    ]
    sums = [batch.games["plies"].to_numpy()[kept].astype(np.float64)]
    sums += [plies[kept, column].astype(np.float64) for column in (1, 2, 3, 4, 5)]
    sums += [victory_margin[kept], (victory_margin[kept] < 5).astype(np.float64)]
    sums += [sums[0] ** 2, victory_margin[kept] ** 2]
    for epoch in (1, 2):  # a sole leader after the epoch, and whether it led after epoch 3 too
        led, led_last = leads[kept, epoch], leads[kept, 3]
        sole = (led > 0) & ((led & (led - 1)) == 0)
        sums += [sole.astype(np.float64), (sole & ((led & led_last) > 0)).astype(np.float64)]
    decisions = sums[5]
    sums += [decisions**2, decisions * sums[0]]
    return _aggregate("agg_games", keys, sums)


@numba.njit(cache=True)
def _standings(game, epoch, letter, gold_after, games, epochs):
    """Who leads and who is last after every epoch of every game, as bit masks of the seats
    (0 for an epoch nobody played), from each seat's gold after the epochs it played."""
    best = np.full((games, epochs), np.iinfo(np.int64).min)
    worst = np.full((games, epochs), np.iinfo(np.int64).max)
    for row in range(len(game)):
        g, e = game[row], epoch[row]
        best[g, e] = max(best[g, e], gold_after[row])
        worst[g, e] = min(worst[g, e], gold_after[row])
    leads = np.zeros((games, epochs), dtype=np.int64)
    last = np.zeros((games, epochs), dtype=np.int64)
    for row in range(len(game)):
        g, e, seat = game[row], epoch[row], 1 << letter[row]
        leads[g, e] |= seat if gold_after[row] == best[g, e] else 0
        last[g, e] |= seat if gold_after[row] == worst[g, e] else 0
    return leads, last


@numba.njit(cache=True)
def _move_counts(game, epoch, kind, legal, games):
    """Per game: its moves in epochs other than 1-3, in epochs 1, 2 and 3, its passes, and its
    decisions (moves with more than one legal action). (Compiled: one pass over the moves.)"""
    counts = np.zeros((games, 6), dtype=np.int64)
    for move in range(len(game)):
        counts[game[move], epoch[move] if epoch[move] <= 3 else 0] += 1
        counts[game[move], 4] += kind[move] == PASS
        counts[game[move], 5] += legal[move] > 1
    return counts


POSITION_PAIRS = tuple(itertools.combinations(range(1, pieces.MAX_SEATS + 1), 2))


def _position_gaps(batch: _Batch) -> pa.Table:
    """Per game and pair of its turn positions, the gap between their win shares."""
    count = batch.games.num_rows
    position = batch.seats["turn_position"].to_numpy().astype(np.int64)
    shares = np.zeros((count, pieces.MAX_SEATS + 1))  # each game's win share by position
    np.add.at(shares, (batch.seat_game, position), batch.win_share)
    seated = np.zeros(count, dtype=bool)
    seated[batch.seat_game] = True
    pairs = [
        (np.nonzero(seated & (batch.players >= second))[0], first, second)
        for first, second in POSITION_PAIRS
    ]
    games = np.concatenate([rows for rows, _, _ in pairs])
    first = np.concatenate([np.full(len(rows), a) for rows, a, _ in pairs])
    second = np.concatenate([np.full(len(rows), b) for rows, _, b in pairs])
    gap = shares[games, first] - shares[games, second]
    keys = [take(batch.rules, games)]
    keys += [
        numbers("first_position", first - 1, pa.int8(), 1),
        numbers("second_position", second - 2, pa.int8(), 2),
    ]
    return _aggregate("agg_position_gaps", keys, [gap, gap**2])


def _head_to_head(batch: _Batch) -> pa.Table:
    """Per game and ordered pair of the agents in it, the agent's mean score over their pairs of
    seats (1 ahead, a half tied)."""
    agent_key = column_key(batch.seats, "agent")
    agent, agents = agent_key.codes, agent_key.single
    people = len(agents) - 1  # the code of a seat without an agent
    gold = batch.seats["final_gold"].to_numpy()
    rows = batch.seat_row
    seated = rows >= 0
    pairs = []  # (game, agent, opponent, score) of every pair of seats of different agents
    for a, b in np.ndindex(pieces.MAX_SEATS, pieces.MAX_SEATS):
        games = np.nonzero(seated[:, a] & seated[:, b])[0]
        mine, theirs = rows[games, a], rows[games, b]
        mixed = (agent[mine] != people) & (agent[theirs] != people) & (agent[mine] != agent[theirs])
        mine, theirs = mine[mixed], theirs[mixed]
        score = (gold[mine] > gold[theirs]) + 0.5 * (gold[mine] == gold[theirs])
        pairs.append((games[mixed], agent[mine], agent[theirs], score))
    game, mine, theirs, score = (np.concatenate(column) for column in zip(*pairs, strict=True))
    found, per_game = np.unique(
        (game * len(agents) + mine) * len(agents) + theirs, return_inverse=True
    )
    mean = np.bincount(per_game, score) / np.bincount(per_game)
    keys = [take(batch.rules, found // len(agents) ** 2)]
    keys += [
        key("agent", found // len(agents) % len(agents), agents),
        key("opponent", found % len(agents), agents),
    ]
    return _aggregate("agg_head_to_head", keys, [mean])


AGGREGATES: dict[str, Callable[[_Batch], pa.Table]] = {
    "agg_castles": _castles,
    "agg_cells": _cells,
    "agg_epochs": _epochs,
    "agg_games": _games,
    "agg_head_to_head": _head_to_head,
    "agg_position_gaps": _position_gaps,
    "agg_scores": _scores,
    "agg_seats": _seats,
    "agg_tile_cells": _tile_cells,
    "agg_tile_kinds": _tile_kinds,
    "agg_tile_use": _tile_use,
}


def aggregate_tables(tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
    """Every aggregate of one batch, computed from its stored tables."""
    batch = _Batch(tables)
    return {name: AGGREGATES[name](batch) for name in aggregate_names()}
