"""Information-set Monte Carlo tree search on the kernel's arrays, compiled.

Every iteration deals the other seats' starting tiles again from what the searching seat has not
seen (the supply's order is sampled as chance nodes are reached), then walks one shared tree,
nodes keyed by action and chance nodes by the outcome that came up. The tree may run past the
end of the epoch (`horizon` epoch ends). A new leaf is played on a few moves by the heuristic
for every seat (`playout`), then valued by `leaf_win_shares`; a node's actions are opened best
first by `order_values` as its visits grow (progressive widening). Every random choice reads
one kernel stream, seeded from the search's seed.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from engine.kernel.apprentice import FEATURES, apprentice_scores, prior
from engine.kernel.compiled import inline, kernel
from engine.kernel.games import Seats, new_seats, next_action
from engine.kernel.layout import (
    ACTION_COUNT,
    CELLS,
    DRAWN,
    EMPTY,
    EPOCH,
    EPOCHS,
    OVER,
    PHASE,
    PLACE,
    PLAYERS,
    RANKS,
    SUPPLY_SIZE,
    TILE_CODES,
    TO_MOVE,
    TURN,
    castles_at,
    gold_at,
    held_at,
    supply_at,
)
from engine.kernel.play import (
    apply_action,
    chance_outcomes,
    final_epoch,
    legal_actions,
)
from engine.kernel.policies import (
    HEURISTIC,
    action_values_in,
    projected_gold,
    unseen_by,
)
from engine.kernel.stream import next_word, random_float

# Slots of the `settings` array a search is given.
EXPLORATION = 0  # UCB constant on win_share rewards in [0, 1]
WIDENING = 1  # a node with v visits considers its 1 + WIDENING·√v best candidates
HORIZON = 2  # epoch ends the tree may cross
PLAYOUT = 3  # a leaf is played on by the heuristic for every seat, this many moves at most
# (and never past its epoch's end), then valued
PRIOR = 4  # 0: candidates opened in the heuristic's order and chosen by UCB1; above 0, opened
# in the apprentice's order and chosen by PUCT, this weight times its prior (AlphaZero's c_puct)
SETTINGS = 5

DEFAULT_SETTINGS = (0.2, 0.3, 0.0, 5, 0.0)

# The leaf's outlook beyond the heuristic's projection: gold a held castle rank is worth (in
# the last epoch, in proportion to the cells still empty: a castle held at the end earns
# nothing; 6 a rank is about what the search's castles held into the last epoch earned, see
# docs/strength.md). The weight of the projection's outlook of placed castles, by epochs still
# to come after this one (0, 1, 2 or more), and the spread of the logistic that turns gold
# margins into win shares, per cell left to fill in the game (times its square root), for 2, 3
# and 4 players: both fitted to the final results of heuristic self-play (bench/leaf_fit.py).
RESERVE_PER_RANK = 6.0
OUTLOOK_WEIGHT = (0.88, 0.46, 0.25)
SPREAD_PER_CELL = (3.2, 6.0, 6.8)

NO_NODE = -1
MAX_DEPTH = 4096  # the longest path an iteration walks
POOL_PER_ITERATION = 64  # candidates a node lists, on average over a search


class Tree(NamedTuple):
    """The search tree's arrays, allocated once for a budget and reused from search to search."""

    visits: np.ndarray  # (nodes,)
    totals: np.ndarray  # (nodes, seats) summed rewards
    first: np.ndarray  # (nodes,) a decision node's first candidate in the pool, -1 unexpanded
    candidates: np.ndarray  # (nodes,) a decision node's candidates
    child: np.ndarray  # (nodes,) a chance node's first child
    sibling: np.ndarray  # (nodes,) the next child of the same chance node
    key: np.ndarray  # (nodes,) the outcome that led from a chance node here
    pool_action: np.ndarray  # (pool,) candidates, best first
    pool_child: np.ndarray  # (pool,) the node each candidate leads to, -1 unopened
    pool_prior: np.ndarray  # (pool,) the apprentice's probability of each candidate


class Scratch(NamedTuple):
    """The arrays a search works in besides its tree, allocated once a search (`new_scratch`)."""

    seats: Seats  # the playout's seats, all heuristic; its legal actions and values serve the
    # search too: a decision's legal actions or a chance node's outcomes, the candidates' values
    # or their prior; its mind is the apprentice guiding the search, when it is
    weights: np.ndarray  # (actions,) the chance outcomes' weights
    reward: np.ndarray  # (seats,) a leaf's win shares


@kernel
def new_scratch(rules, model, seed) -> Scratch:
    """Fresh arrays for a search under these rules, its apprentice's `model`, its stream seeded."""
    seats = new_seats(rules, np.full(rules[PLAYERS], HEURISTIC, dtype=np.int64), model)
    seats.stream[0] = np.uint64(seed)
    weights = np.zeros(rules[ACTION_COUNT], dtype=np.int64)
    return Scratch(seats, weights, np.zeros(rules[PLAYERS], dtype=np.float64))


def new_tree(iterations: int, seats: int, actions: int) -> Tree:
    """Arrays for a search of `iterations`: a few nodes and one node's candidates each (a search
    that outgrows them values its further new nodes without expanding them)."""
    nodes = 4 * iterations + 64
    pool = POOL_PER_ITERATION * iterations + 2 * actions
    return Tree(
        np.zeros(nodes, dtype=np.int64),
        np.zeros((nodes, seats), dtype=np.float64),
        np.zeros(nodes, dtype=np.int64),
        np.zeros(nodes, dtype=np.int64),
        np.zeros(nodes, dtype=np.int64),
        np.zeros(nodes, dtype=np.int64),
        np.zeros(nodes, dtype=np.int64),
        np.zeros(pool, dtype=np.int16),
        np.zeros(pool, dtype=np.int32),
        np.zeros(pool, dtype=np.float32),
    )


# ---------------------------------------------------------------- what a position is worth


@inline
def cells_left(state, rules) -> int:
    """The cells still to fill in the game: this epoch's empty ones and every later board."""
    return state[EMPTY] + rules[CELLS] * (rules[EPOCHS] - state[EPOCH])


@inline
def reserve_share(state, rules) -> float:
    """The share of the held-castle reserve a leaf counts: all of it, but in the last epoch
    only the empty cells' share (fewer chances to place a castle as the last board fills)."""
    return state[EMPTY] / rules[CELLS] if final_epoch(state, rules) else 1.0


@kernel
def leaf_win_shares(state, rules, reward, unseen, scratch) -> None:
    """Each seat's expected win_share into `reward`: exact when the game is over, else a
    logistic of the heuristic's projected gold (engine/kernel/policies.py) plus the ranks it
    holds, the spread narrowing as the cells left to fill run out (`unseen`, `scratch`: scratch
    arrays as long as the tile codes, and `policy_scratch`'s)."""
    players = rules[PLAYERS]
    phase = state[PHASE]
    strength = reward  # each seat's strength first, turned into its win_share in place
    if phase == TURN or phase == DRAWN or phase == PLACE:
        unseen_by(state, rules, state[TO_MOVE], unseen)
        epochs_after = min(rules[EPOCHS] - state[EPOCH], len(OUTLOOK_WEIGHT) - 1)
        projected_gold(state, rules, unseen, strength, OUTLOOK_WEIGHT[epochs_after], scratch)
    else:
        for seat in range(players):
            strength[seat] = state[gold_at(rules, seat)]
    if phase == OVER:
        top = strength[:players].max()
        winners = 0
        for seat in range(players):
            winners += strength[seat] == top
        for seat in range(players):
            reward[seat] = 1.0 / winners if strength[seat] == top else 0.0
        return
    spread = SPREAD_PER_CELL[players - 2] * math.sqrt(max(cells_left(state, rules), 1))
    reserve = RESERVE_PER_RANK * reserve_share(state, rules)
    for seat in range(players):
        for rank in range(1, RANKS):
            strength[seat] += reserve * (rank + 1) * state[castles_at(rules, seat, rank)]
    top = strength[:players].max()
    total = 0.0
    for seat in range(players):
        reward[seat] = math.exp((strength[seat] - top) / spread)
        total += reward[seat]
    for seat in range(players):
        reward[seat] /= total


@kernel
def order_values(state, rules, count, value_draw, scratch) -> None:
    """The heuristic policy's value of each of the first `count` candidates of the seats' `legal`,
    into their `values`, for the move order; a draw is valued first of all unless `value_draw`
    asks its expectation."""
    seats = scratch.seats
    unseen, legal, values = seats.unseen, seats.legal, seats.values
    unseen_by(state, rules, state[TO_MOVE], unseen)
    draw_value = np.nan if value_draw else 1e18
    action_values_in(state, rules, unseen, legal, count, 1.0, draw_value, values, seats.valuing)


@kernel
def playout(state, rules, moves, scratch) -> None:
    """Play the state on by the heuristic at every seat for `moves` moves at most, chance
    included, stopping at its epoch's end."""
    epoch = state[EPOCH]
    played = 0
    while state[PHASE] != OVER and state[EPOCH] == epoch and played < moves:
        phase = state[PHASE]
        played += phase == TURN or phase == PLACE
        action = next_action(state, rules, scratch.seats)
        apply_action(state, rules, action)


# ---------------------------------------------------------------- the search


@kernel
def determinise(state, rules, viewer: int, holds, stream) -> None:
    """Deal every other seat that holds a starting tile one from the tiles `viewer` has not
    seen (the state's supply, which counts them)."""
    for seat in range(rules[PLAYERS]):
        if seat == viewer or not holds[seat]:
            continue
        pick = random_float(stream) * state[SUPPLY_SIZE]
        tile = 1
        while tile < rules[TILE_CODES] - 1:
            pick -= state[supply_at(rules, tile)]
            if pick < 0:
                break
            tile += 1
        while state[supply_at(rules, tile)] == 0:  # rounding at the very end of the range
            tile -= 1
        state[supply_at(rules, tile)] -= 1
        state[SUPPLY_SIZE] -= 1
        state[held_at(rules, seat)] = tile


@kernel
def sample_chance(state, rules, outcomes, weights, stream) -> int:
    count = chance_outcomes(state, rules, outcomes, weights)
    total = 0
    for k in range(count):
        total += weights[k]
    pick = random_float(stream) * total
    for k in range(count):
        pick -= weights[k]
        if pick < 0:
            return outcomes[k]
    return outcomes[count - 1]


@kernel
def expand(tree, node, state, rules, pool_used, scratch, value_draw, guided) -> int:
    """List a decision node's legal actions into the pool, best first (by the heuristic, or
    `guided` by the apprentice, each with its prior); returns the pool used."""
    seats = scratch.seats
    legal, values = seats.legal, seats.values
    count = legal_actions(state, rules, legal)
    if count > 1 and guided:
        apprentice_scores(
            state, rules, seats.unseen, legal, count, values, seats.valuing, seats.mind
        )
        prior(seats.mind.scores, count, values)
        order = np.argsort(-values[:count], kind="mergesort")
    elif count > 1:
        order_values(state, rules, count, value_draw, scratch)
        order = np.argsort(-values[:count], kind="mergesort")
    else:
        order = np.zeros(1, dtype=np.int64)
        values[0] = 1.0
    tree.first[node] = pool_used
    tree.candidates[node] = count
    for k in range(count):
        tree.pool_action[pool_used + k] = legal[order[k]]
        tree.pool_child[pool_used + k] = NO_NODE
        tree.pool_prior[pool_used + k] = values[order[k]] if guided else 0.0
    return pool_used + count


@kernel
def select(tree, node, seat, widening, exploration, always_open, guide) -> int:
    """Among the candidates opened so far: UCB1 (an untried one first), or with a `guide`
    weight PUCT on the apprentice's prior (the `always_open` first tried first, any other
    untried one valued as its parent); returns its pool slot."""
    visits = tree.visits[node]
    opened = max(always_open, 1 + int(widening * math.sqrt(visits)))
    opened = min(opened, tree.candidates[node])
    first = tree.first[node]
    log_visits = math.log(visits + 1)
    root_visits = math.sqrt(visits + 1) if guide > 0 else 0.0
    parent = tree.totals[node, seat] / visits if visits and guide > 0 else 0.5
    best, best_score = first, -np.inf
    for slot in range(first, first + opened):
        child = tree.pool_child[slot]
        n = 0 if child == NO_NODE else tree.visits[child]
        if n == 0 and (guide <= 0 or slot - first < always_open):
            return slot
        if guide > 0:
            mean = tree.totals[child, seat] / n if n else parent
            score = mean + guide * tree.pool_prior[slot] * root_visits / (1 + n)
        else:
            score = tree.totals[child, seat] / n + exploration * math.sqrt(log_visits / n)
        if score > best_score:
            best, best_score = slot, score
    return best


@kernel
def new_node(tree, used) -> int:
    tree.visits[used] = 0
    tree.totals[used] = 0.0
    tree.first[used] = NO_NODE
    tree.candidates[used] = 0
    tree.child[used] = NO_NODE
    tree.sibling[used] = NO_NODE
    tree.key[used] = -1
    return used


@kernel
def chance_child(tree, node, outcome, used) -> tuple[int, int]:
    """The child of a chance node for an outcome, made if new; returns it and the nodes used."""
    child = tree.child[node]
    while child != NO_NODE:
        if tree.key[child] == outcome:
            return child, used
        child = tree.sibling[child]
    child = new_node(tree, used)
    tree.key[child] = outcome
    tree.sibling[child] = tree.child[node]
    tree.child[node] = child
    return child, used + 1


@kernel
def deal_values(root, work, rules, holds, actions, seed, settings, out) -> None:
    """Each of `actions`' win_share for the seat to move on each of `out`'s rows of deals
    (out[deal, k]): every action of a deal played out (as a search's leaf) from the same
    stream, so that all meet the same tiles and their differences carry little chance."""
    viewer = root[TO_MOVE]
    scratch = new_scratch(rules, np.zeros((3, FEATURES), dtype=np.float64), 0)
    stream = scratch.seats.stream
    starts = np.zeros(1, dtype=np.uint64)
    starts[0] = np.uint64(seed)
    for deal in range(out.shape[0]):
        start = next_word(starts)
        for k in range(actions.shape[0]):
            stream[0] = start
            work[:] = root
            determinise(work, rules, viewer, holds, stream)
            apply_action(work, rules, actions[k])
            playout(work, rules, settings[PLAYOUT], scratch)
            leaf_win_shares(
                work, rules, scratch.reward, scratch.seats.unseen, scratch.seats.valuing
            )
            out[deal, k] = scratch.reward[viewer]


class RootStats(NamedTuple):
    """What a search found at its root: every candidate, its visits and its expected win_share
    for the seat to move (-1 unvisited), each as long as the action ids."""

    actions: np.ndarray
    visits: np.ndarray
    values: np.ndarray


def new_root_stats(actions: int) -> RootStats:
    return RootStats(
        np.zeros(actions, dtype=np.int64),
        np.zeros(actions, dtype=np.int64),
        np.zeros(actions, dtype=np.float64),
    )


@kernel
def search(root, work, rules, holds, iterations, seed, settings, model, tree, include, out) -> int:
    """Search `iterations` times from `root` as its seat to move sees it (other seats'
    starting tiles in the supply, `holds` saying who holds one), the apprentice's `model`
    guiding it when `settings[PRIOR]` is above 0;
    `include` actions (-1 padded) are searched whatever their rank. Writes every root candidate,
    its visits and its expected win_share for the seat into `out` (`new_root_stats`'s); returns
    how many candidates there are."""
    seats = rules[PLAYERS]
    viewer = root[TO_MOVE]
    exploration = settings[EXPLORATION]
    widening = settings[WIDENING]
    guide = settings[PRIOR]
    guided = guide > 0
    last_epoch = root[EPOCH] + int(settings[HORIZON])
    nodes = tree.visits.shape[0]
    pool = tree.pool_action.shape[0]
    scratch = new_scratch(rules, model, seed)
    stream, reward = scratch.seats.stream, scratch.reward
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    playout_moves = settings[PLAYOUT]
    used = 1
    new_node(tree, 0)
    work[:] = root
    determinise(work, rules, viewer, holds, stream)  # the true supply decides whether to draw
    pool_used = expand(tree, 0, work, rules, 0, scratch, True, guided)
    always_open = 1
    first = tree.first[0]
    for k in range(include.shape[0]):  # bring forced actions just behind the best one
        for slot in range(first + always_open, first + tree.candidates[0]):
            if tree.pool_action[slot] == include[k]:
                for back in range(slot, first + always_open, -1):
                    tree.pool_action[back] = tree.pool_action[back - 1]
                tree.pool_action[first + always_open] = include[k]
                always_open += 1
                break
    for _ in range(iterations):
        work[:] = root
        determinise(work, rules, viewer, holds, stream)
        node = 0
        depth = 0
        path[0] = 0
        while (
            work[PHASE] != OVER
            and work[EPOCH] <= last_epoch
            and used < nodes - 1
            and depth < MAX_DEPTH
        ):
            phase = work[PHASE]
            if phase == TURN or phase == PLACE:
                if tree.visits[node] == 0 and node != 0:
                    break
                if tree.first[node] == NO_NODE:
                    if pool_used + scratch.seats.legal.shape[0] > pool:
                        break
                    pool_used = expand(tree, node, work, rules, pool_used, scratch, False, guided)
                seat = work[TO_MOVE]
                opened = always_open if node == 0 else 1
                slot = select(tree, node, seat, widening, exploration, opened, guide)
                apply_action(work, rules, np.int64(tree.pool_action[slot]))
                child = tree.pool_child[slot]
                if child == NO_NODE:
                    child = new_node(tree, used)
                    used += 1
                    tree.pool_child[slot] = child
            else:
                outcome = sample_chance(work, rules, scratch.seats.legal, scratch.weights, stream)
                apply_action(work, rules, outcome)
                child, used = chance_child(tree, node, outcome, used)
            node = child
            depth += 1
            path[depth] = node
        playout(work, rules, playout_moves, scratch)
        leaf_win_shares(work, rules, reward, scratch.seats.unseen, scratch.seats.valuing)
        for k in range(depth + 1):
            visited = path[k]
            tree.visits[visited] += 1
            for seat in range(seats):
                tree.totals[visited, seat] += reward[seat]
    count = tree.candidates[0]
    for k in range(count):
        slot = tree.first[0] + k
        out.actions[k] = tree.pool_action[slot]
        child = tree.pool_child[slot]
        if child == NO_NODE or tree.visits[child] == 0:
            out.visits[k] = 0
            out.values[k] = -1.0
        else:
            out.visits[k] = tree.visits[child]
            out.values[k] = tree.totals[child, viewer] / tree.visits[child]
    return count
