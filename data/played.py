"""Finished games on their way into the lake: one game (a record, a searched game) and a batch
of them column by column, which is how the kernel plays them and the lake takes them."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import InitVar, dataclass, field
from functools import cache
from itertools import chain

import numpy as np
import pyarrow as pa

from engine.actions import action_codes
from engine.kernel.batch import KernelGames
from engine.kernel.batch import action_type as kernel_action_type
from engine.rules import RuleSet, rule_set, rules_hash


@dataclass
class PlayedGame:
    """A finished game as the engine played (or replayed) it. Its history is kept as bytes:
    a list of ints costs eight times the memory."""

    players: int
    rules: RuleSet
    history: InitVar[Sequence[int] | np.ndarray]
    players_names: Sequence[str]  # games played from one plan share these
    agents: Sequence[str | None]
    seed: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    unseen_starts: Sequence[tuple[int, int]] = ()  # (epoch, seat): a `?` never placed
    actions: bytes = field(init=False)  # the history as bytes, `action_type(rules)` each
    game_id: int = field(init=False)

    def __post_init__(self, history: Sequence[int] | np.ndarray) -> None:
        # Worked out at once: every game is identified before it is stored.
        self.actions = action_bytes(self.rules, history)
        self.game_id = game_id(self.rules, self.players, self.actions)


def action_type(rules: RuleSet) -> type[np.unsignedinteger]:
    """The type of the rules' action ids: a byte each on the shipped boards, else two."""
    return kernel_action_type(action_codes(rules.cells).size)


def action_bytes(rules: RuleSet, history: Sequence[int] | np.ndarray) -> bytes:
    """A game's action ids as bytes, `action_type(rules)` each."""
    if action_type(rules) == np.uint8:
        return bytes(bytearray(history))  # twice as fast as bytes() of a list
    return np.asarray(history, dtype=np.uint16).tobytes()


def game_id(rules: RuleSet, players: int, history: Sequence[int] | bytes) -> int:
    """A stable id: a hash of the rule set, the player count and every action (as
    `action_bytes` gives them, or given so: a byte each on the shipped boards, as always)."""
    digest = _setup_hash(rules, players).copy()  # the setup is hashed once, not once a game
    digest.update(history if isinstance(history, bytes) else action_bytes(rules, history))
    return int.from_bytes(digest.digest(), "big") >> 1


@cache
def _setup_hash(rules: RuleSet, players: int):
    """The hash of the rules and the player count, which every game id goes on from: a shipped
    edition's by its edition and variants (the ids games have always had), any other rule set's
    by its content hash too."""
    edition, variants = rules.edition, rules.variant_text()
    shipped = rules == rule_set(edition, variants)
    setup = f"{edition}|{variants}|{'' if shipped else rules_hash(rules) + '|'}{players}|"
    return hashlib.blake2b(setup.encode(), digest_size=8)


@dataclass(frozen=True)
class Setups:
    """A batch's distinct setups (player count, rules), and each game's as an index into
    them: what follows from the rules is worked out once per setup, not once per game."""

    code: np.ndarray
    distinct: list[tuple[int, RuleSet]]

    def per_game(self, value: Callable[[int, RuleSet], object], dtype=None) -> np.ndarray:
        """`value(players, rules)` for every game."""
        return np.array([value(*setup) for setup in self.distinct], dtype=dtype)[self.code]


LineUp = tuple[Sequence[str], Sequence[str | None]]  # the players' names and agents, by seat


@dataclass(frozen=True)
class PlayedGames:
    """Finished games column by column: game g's actions are actions[offsets[g]:offsets[g+1]],
    its seats `line_ups[line_up[g]]`; seeds, tags and unseen starts are the lake's columns."""

    setups: Setups
    actions: np.ndarray  # uint8, or uint16 where some rules' action ids need two bytes
    offsets: np.ndarray  # (G + 1,) int64
    ids: np.ndarray  # (G,) int64
    line_ups: list[LineUp]
    line_up: np.ndarray  # (G,) int64
    seeds: pa.Array  # int64, null where none is known
    tags: pa.MapArray
    unseen_starts: pa.ListArray  # positions in the game's `deals` of starting tiles never seen

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def of(cls, games: Sequence[PlayedGame]) -> PlayedGames:
        """The batch of these games, in their order."""
        setups: dict[tuple[int, RuleSet], int] = {}
        numbers: dict[tuple[int, int], int] = {}  # games of one plan share their lists
        line_ups: list[LineUp] = []
        line_up = []
        for g in games:
            number = numbers.setdefault((id(g.players_names), id(g.agents)), len(numbers))
            if number == len(line_ups):
                line_ups.append((g.players_names, g.agents))
            line_up.append(number)
        tags = [g.tags for g in games]
        unseen = [[(e - 1) * g.players + s for e, s in g.unseen_starts] for g in games]
        code = [setups.setdefault((g.players, g.rules), len(setups)) for g in games]
        histories = [np.frombuffer(g.actions, dtype=action_type(g.rules)) for g in games]
        return cls(
            Setups(np.array(code, dtype=np.int64), list(setups)),
            np.concatenate([np.zeros(0, np.uint8), *histories]),
            _offsets(map(len, histories)).astype(np.int64),
            np.array([g.game_id for g in games], dtype=np.int64),
            line_ups,
            np.array(line_up, dtype=np.int64),
            pa.array([g.seed for g in games], pa.int64()),
            pa.MapArray.from_arrays(
                _offsets(map(len, tags)),
                pa.array(list(chain.from_iterable(tags)), pa.string()),
                pa.array(list(chain.from_iterable(map(dict.values, tags))), pa.string()),
            ),
            pa.ListArray.from_arrays(
                _offsets(map(len, unseen)), pa.array(list(chain(*unseen)), pa.uint8())
            ),
        )

    @classmethod
    def played(
        cls,
        players: int,
        rules: RuleSet,
        kernel: KernelGames,
        seeds: np.ndarray,
        agents: Sequence[str],
    ) -> PlayedGames:
        """The games the kernel played from `seeds`, all with these rules and agents."""
        count, width = len(seeds), kernel.actions.itemsize
        actions, ends = kernel.actions.tobytes(), (kernel.offsets * width).tolist()
        ids = [game_id(rules, players, actions[ends[g] : ends[g + 1]]) for g in range(count)]
        none = np.zeros(count + 1, dtype=np.int32)
        return cls(
            Setups(np.zeros(count, dtype=np.int64), [(players, rules)]),
            kernel.actions,
            kernel.offsets,
            np.array(ids, dtype=np.int64),
            [(agents, agents)],
            np.zeros(count, dtype=np.int64),
            pa.array(seeds, pa.int64()),
            pa.MapArray.from_arrays(none, pa.array([], pa.string()), pa.array([], pa.string())),
            pa.ListArray.from_arrays(none, pa.array([], pa.uint8())),
        )

    @classmethod
    def joined(cls, parts: Sequence[PlayedGames]) -> PlayedGames:
        """One batch of the parts' games, part after part."""
        if not parts:
            return cls.of([])
        distinct = list(dict.fromkeys(chain.from_iterable(p.setups.distinct for p in parts)))
        codes = [
            np.array([distinct.index(s) for s in p.setups.distinct])[p.setups.code] for p in parts
        ]
        lengths = np.concatenate([np.diff(p.offsets) for p in parts])
        line_ups = np.cumsum([0] + [len(p.line_ups) for p in parts[:-1]])  # before each part
        return cls(
            Setups(np.concatenate(codes).astype(np.int64), distinct),
            np.concatenate([p.actions for p in parts]),
            np.r_[0, np.cumsum(lengths)].astype(np.int64),
            np.concatenate([p.ids for p in parts]),
            [line_up for p in parts for line_up in p.line_ups],
            np.concatenate([p.line_up + n for p, n in zip(parts, line_ups, strict=True)]),
            pa.concat_arrays([p.seeds for p in parts]),
            pa.concat_arrays([p.tags for p in parts]),
            pa.concat_arrays([p.unseen_starts for p in parts]),
        )

    def __getitem__(self, rows: slice | np.ndarray) -> PlayedGames:
        """The games at `rows` (a slice or an array of positions), in that order."""
        rows = np.arange(len(self))[rows] if isinstance(rows, slice) else np.asarray(rows)
        lengths = np.diff(self.offsets)[rows]
        offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
        moved = np.repeat(self.offsets[:-1][rows] - offsets[:-1], lengths)
        return PlayedGames(
            Setups(self.setups.code[rows], self.setups.distinct),
            self.actions[moved + np.arange(offsets[-1])],
            offsets,
            self.ids[rows],
            self.line_ups,
            self.line_up[rows],
            self.seeds.take(rows),
            self.tags.take(rows),
            self.unseen_starts.take(rows),
        )

    def unknown(self, known: Collection[int]) -> PlayedGames:
        """The games whose ids are not in `known`, each once, in order."""
        first = {game: row for row, game in reversed(list(enumerate(self.ids.tolist())))}
        kept = sorted(row for game, row in first.items() if game not in known)
        return self if len(kept) == len(self) else self[np.array(kept, dtype=np.int64)]


def _offsets(lengths) -> np.ndarray:
    return np.r_[0, np.cumsum(list(lengths))].astype(np.int32)
