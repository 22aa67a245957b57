"""The evaluator's information-set Monte Carlo tree search (single observer), on engine.State.

Every iteration deals the hidden information again from what the searching seat knows
(`Observation.sample_state`: the opponents' starting tiles, and the supply's order, which the
chance nodes sample as they are reached), then walks one shared tree, so statistics gather
across samples. Nodes are keyed by action, chance nodes by the tile that came up.

The tree stops at the end of the current epoch. A leaf is valued without a playout: each
seat's gold as the board stands plus the heuristic's outlook for its placed castles, and the
castles it still holds, turned into an expected win_share by a logistic spread that widens
with the epochs left. (Uniformly random playouts to the end of the epoch were measured weaker:
random players neither feed their own lines nor attack others', so they misjudge castles.)
At a node, the candidate actions are ordered by the heuristic agent's judgement and opened one
by one as the node's visits grow (progressive widening), so the budget goes to moves worth
comparing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.agents.greedy import Position
from engine.agents.heuristic import heuristic_values, projected_gold
from engine.outcome import Outcome
from engine.state import DEAL, DRAWN, FIRST, OVER, PLACE, TURN, Game, Observation, State

EXPLORATION = 0.2  # UCB constant on win_share rewards in [0, 1]
WIDENING = 0.3  # a node with v visits considers its 1 + WIDENING·√v best candidates
RESERVE_PER_RANK = 8.0  # gold a held castle of rank ≥ 2 is expected to earn in a later epoch
EPOCH_SPREAD = 25.0  # logistic scale, in gold, of one epoch's outcome
_FIRST_IN_ORDER = float("inf")


class Node:
    """Statistics of one action sequence, summed over every sample that reached it."""

    __slots__ = ("children", "visits", "totals", "gold", "candidates", "always_open")

    def __init__(self, players: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.totals = [0.0] * players
        self.gold = 0.0  # a root child's sum of the searching seat's leaf gold
        self.candidates: list[int] | None = None
        self.always_open = 1  # candidates open from the first visit on


@dataclass(frozen=True)
class SearchResult:
    """What a search found, from the point of view of the seat to move at its root."""

    seat: int
    win_shares: tuple[float, ...]  # expected win_share of every seat at the root
    visits: dict[int, int]  # root action -> iterations through it
    values: dict[int, float]  # root action -> expected win_share of `seat` after it
    gold: dict[int, float]  # root action -> expected gold of `seat` after it (`leaf_gold`)

    @property
    def best_action(self) -> int:
        """The most visited action (the better valued among equally visited ones)."""
        return max(self.visits, key=lambda action: (self.visits[action], self.values[action]))


def search_observation(
    observation: Observation,
    legal_actions: Sequence[int],
    iterations: int,
    rng: random.Random,
    include: Iterable[int] = (),
) -> SearchResult:
    """Search from what one seat knows; `include` actions are searched whatever their rank.

    The legal actions are given, not read from the observation's public state: there the
    other seats' starting tiles are back in the supply, so a draw can look possible when the
    real supply is empty.
    """
    position = Position.from_observation(observation)
    return _search(
        observation.public,
        observation.sample_state,
        position,
        legal_actions,
        iterations,
        rng,
        include,
    )


def search_state(
    state: State, iterations: int, rng: random.Random, include: Iterable[int] = ()
) -> SearchResult:
    """Search knowing every starting tile (the supply's order stays unknown to anyone)."""
    return _search(
        state,
        lambda _: state.clone(),
        _root_position(state),
        state.legal_actions(),
        iterations,
        rng,
        include,
    )


def _root_position(state: State) -> Position | None:
    """The seat to move's view of the state; None where no seat is to move."""
    if state.is_chance_node() or state.is_terminal():
        return None
    return Position.from_state(state)


def _search(
    root_state: State,
    sample: Callable[[random.Random], State],
    root_position: Position | None,
    legal: Sequence[int],
    iterations: int,
    rng: random.Random,
    include: Iterable[int],
) -> SearchResult:
    game = root_state.game
    players = game.players
    epoch = root_state.epoch
    root = Node(players)
    if root_position is not None:
        order = _ordered(legal, heuristic_values(root_position, legal))
        forced = [a for a in include if a in legal and a != order[0]]
        root.candidates = order[:1] + forced + [a for a in order[1:] if a not in forced]
        root.always_open = 1 + len(forced)
    seat = root_state.current_player()
    for _ in range(iterations):
        state = sample(rng)
        path = _descend(root, state, epoch, players, rng)
        gold = leaf_gold(state)
        reward = expected_win_shares(state, game, gold)
        for node in path:
            node.visits += 1
            totals = node.totals
            for each in range(players):
                totals[each] += reward[each]
        if root_position is not None and len(path) > 1:
            path[1].gold += gold[seat]
    children = root.children.items()
    visits = {a: child.visits for a, child in children}
    values = {a: child.totals[seat] / child.visits for a, child in children}
    gold_after = {a: child.gold / child.visits for a, child in children}
    shares = tuple(t / root.visits for t in root.totals) if root.visits else ()
    return SearchResult(seat, shares, visits, values, gold_after)


def _descend(root: Node, state: State, epoch: int, players: int, rng: random.Random) -> list[Node]:
    """Walk the tree with the sampled state down to a new leaf; the state follows along."""
    node = root
    path = [root]
    while state.phase != OVER and state.epoch == epoch:
        if state.phase in (DEAL, FIRST, DRAWN):
            action = _sample_chance(state, rng)
        else:
            if node.visits == 0 and node is not root:
                break
            if node.candidates is None:
                node.candidates = _candidates(state)
            action = _select(node, state.seat)
        state.apply_action(action)
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = Node(players)
        node = child
        path.append(node)
    return path


def _select(node: Node, seat: int) -> int:
    """UCB1 among the candidates opened so far; an untried one first."""
    candidates = node.candidates
    assert candidates is not None
    opened = candidates[: max(node.always_open, 1 + int(WIDENING * math.sqrt(node.visits)))]
    children = node.children
    log_visits = math.log(node.visits + 1)
    best_action, best_score = opened[0], -1.0
    for action in opened:
        child = children.get(action)
        if child is None or child.visits == 0:
            return action
        score = child.totals[seat] / child.visits + EXPLORATION * math.sqrt(
            log_visits / child.visits
        )
        if score > best_score:
            best_action, best_score = action, score
    return best_action


def _candidates(state: State) -> list[int]:
    """A node's actions, best first by the heuristic's judgement (drawing first, unvalued)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal
    draw_value = None if state.phase == PLACE else _FIRST_IN_ORDER
    return _ordered(legal, heuristic_values(Position.from_state(state), legal, draw_value))


def _ordered(actions: Sequence[int], values: Sequence[float]) -> list[int]:
    return [a for _, a in sorted(zip(values, actions, strict=True), key=lambda p: -p[0])]


def _sample_chance(state: State, rng: random.Random) -> int:
    pick = rng.random()
    outcomes = state.chance_outcomes()
    for action, probability in outcomes:
        pick -= probability
        if pick < 0:
            return action
    return outcomes[-1][0]


def leaf_gold(state: State) -> list[float]:
    """Each seat's gold at a leaf: as it stands, plus mid-epoch the outlook of its castles."""
    if state.phase in (TURN, DRAWN, PLACE):
        return projected_gold(Position.from_state(state))
    return [float(g) for g in state.gold]


def expected_win_shares(
    state: State, game: Game, gold: Sequence[float] | None = None
) -> list[float]:
    """Each seat's win_share if the game is over, else its expectation from gold and castles
    (`gold`: the state's `leaf_gold`, when already known)."""
    rules = game.rules
    gold = leaf_gold(state) if gold is None else gold
    over = state.phase == OVER
    if over and (rules.last_castle or state.epoch >= rules.epochs):
        return list(Outcome.of(state.gold).win_shares)
    epochs_left = rules.epochs - state.epoch + (0 if over else 1)
    spread = EPOCH_SPREAD * math.sqrt(max(epochs_left, 1))
    strength = [
        g + RESERVE_PER_RANK * sum(rank * count for rank, count in enumerate(held, 1) if rank > 1)
        for g, held in zip(gold, state.castles, strict=True)
    ]
    top = max(strength)
    weights = [math.exp((s - top) / spread) for s in strength]
    total = sum(weights)
    return [w / total for w in weights]
