"""The strong agent: the kernel's compiled information-set search, fed one seat's observation."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.kernel import apprentice, play, search
from engine.kernel.layout import (
    EMPTY,
    EPOCH,
    LAST_PLACED,
    NEXT_FIRST,
    ORDER_FIRST,
    PENDING,
    PHASE,
    PLAYERS,
    SUPPLY_SIZE,
    TO_MOVE,
)
from engine.kernel.tables import KernelState, kernel_rules
from engine.state import Observation

STRONG_ITERATIONS = 1000  # the `strong` preset's budget a move


def kernel_position(observation: Observation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The observation as the kernel's arrays (rules, state): the other seats' starting tiles
    back among the unseen tiles of the supply; also who holds one."""
    public = observation.public
    rules = kernel_rules(public.players, public.game.rules)
    packed = play.new_state(rules)
    state = KernelState.of(packed, rules)
    players = public.players
    s = state.scalars
    s[EPOCH] = observation.epoch
    s[PHASE] = public.phase  # engine.state's phases are numbered as the kernel's
    s[TO_MOVE] = observation.current_player
    s[PENDING] = observation.pending_tile
    s[EMPTY] = public.empty
    s[SUPPLY_SIZE] = sum(observation.unseen)
    s[LAST_PLACED] = int(public.last_castle_placed)
    s[ORDER_FIRST] = observation.turn_order[0]
    s[NEXT_FIRST] = -1 if public.next_first is None else public.next_first
    state.board[:] = observation.board
    state.gold[:players] = observation.gold
    state.castles[:players] = observation.castles
    state.held[observation.seat] = observation.own_start
    state.supply[:] = observation.unseen
    for epoch, gains in enumerate(public.epoch_gains):
        state.gains[epoch, :players] = gains
    holds = np.zeros(state.gold.shape[0], dtype=np.int64)
    holds[:players] = observation.holds_start
    return rules, packed, holds


@dataclass(frozen=True)
class StrongResult:
    """A search's root: its legal actions best first by the move order, and each searched
    action's visits and expected win_share for the seat."""

    seat: int
    candidates: tuple[int, ...]
    visits: dict[int, int]
    values: dict[int, float]

    @property
    def best_action(self) -> int:
        """The most visited action (the better valued among equally visited ones)."""
        return max(self.visits, key=lambda action: (self.visits[action], self.values[action]))


class Searcher:
    """The compiled search with its tree arrays, kept from move to move."""

    def __init__(
        self,
        iterations: int,
        settings: Sequence[float] = search.DEFAULT_SETTINGS,
        model: np.ndarray | None = None,
    ):
        if len(settings) != search.SETTINGS:
            raise ValueError(f"a search takes {search.SETTINGS} settings, not {len(settings)}")
        self.iterations = iterations
        self.settings = np.array(settings, dtype=np.float64)
        guided = self.settings[search.PRIOR] > 0
        if model is None:
            model = apprentice.shipped_model() if guided else apprentice.no_model()
        self.model = model
        self._trees: dict[tuple[int, int], search.Tree] = {}

    def search(
        self, observation: Observation, seed: int, include: Iterable[int] = ()
    ) -> StrongResult:
        """Search from what the observation's seat knows; `include` actions are always tried."""
        rules, root, holds = kernel_position(observation)
        actions = play.action_count(rules)
        key = (int(rules[PLAYERS]), actions)
        tree = self._trees.get(key)
        if tree is None:
            tree = self._trees[key] = search.new_tree(self.iterations, *key)
        work = play.new_state(rules)
        forced = np.array(list(include) or [-1], dtype=np.int64)
        out = search.new_root_stats(actions)
        count = search.search(
            root,
            work,
            rules,
            holds,
            self.iterations,
            seed,
            self.settings,
            self.model,
            tree,
            forced,
            out,
        )
        found, visits, values = out
        searched = [k for k in range(count) if visits[k] > 0]
        return StrongResult(
            observation.current_player,
            tuple(found[:count].tolist()),
            {int(found[k]): int(visits[k]) for k in searched},
            {int(found[k]): float(values[k]) for k in searched},
        )

    def deal_values(
        self, observation: Observation, actions: Sequence[int], deals: int, seed: int
    ) -> np.ndarray:
        """Each action's win_share for the observation's seat on each of `deals` deals met after
        every action alike, one row a deal (engine/kernel/search.py deal_values)."""
        rules, root, holds = kernel_position(observation)
        out = np.zeros((deals, len(actions)), dtype=np.float64)
        search.deal_values(
            root,
            play.new_state(rules),
            rules,
            holds,
            np.array(actions, dtype=np.int64),
            seed,
            self.settings,
            out,
        )
        return out


class StrongAgent:
    """Searches `iterations` times a decision on the kernel and plays the most visited action."""

    def __init__(self, iterations: int, seed: int | str, name: str | None = None) -> None:
        self.name = name or f"mcts-{iterations}"
        self.iterations = iterations
        self.searcher = Searcher(iterations)
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        return self.searcher.search(observation, self.rng.getrandbits(32)).best_action
