"""Information-set Monte Carlo tree search on the kernel's arrays, compiled.

Every iteration deals the other seats' starting tiles again from what the searching seat has not
seen (the supply's order is sampled as chance nodes are reached), then walks one shared tree,
nodes keyed by action and chance nodes by the outcome that came up. The tree may run past the
end of the epoch (`horizon` epoch ends). A new leaf is valued by `leaf_win_shares`; a node's
actions are opened best first by `order_values` as its visits grow (progressive widening).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np

from engine.kernel.layout import (
    CASTLE,
    DRAGON,
    DRAWN,
    EMPTY,
    EPOCH,
    EPOCHS,
    GOLD_MINE,
    KIND,
    MOUNTAIN,
    OVER,
    PENDING,
    PHASE,
    PLACE,
    PLAYERS,
    RANK,
    ROWS,
    SCORE_AS_YOU_GO,
    SEAT,
    SUPPLY_SIZE,
    TO_MOVE,
    TURN,
    VALUE,
    WIZARD,
)
from engine.kernel.play import (
    CASTLE_1,
    CHOOSE,
    DRAW,
    PASS,
    PLACE_DRAWN,
    START,
    action_block,
    apply_action,
    chance_outcomes,
    legal_actions,
)
from engine.kernel.scoring import (
    add_line_gold,
    castle_rank,
    effective_ranks,
    score_gold,
    wizard_cell,
)
from engine.kernel.tables import KernelRules

# Slots of the `settings` array a search is given.
EXPLORATION = 0  # UCB constant on win_share rewards in [0, 1]
WIDENING = 1  # a node with v visits considers its 1 + WIDENING·√v best candidates
HORIZON = 2  # epoch ends the tree may cross
SETTINGS = 3

DEFAULT_SETTINGS = (0.2, 0.3, 0.0)

# The leaf's outlook and the move order: the heuristic agent's constants (agents/heuristic.py).
RISK_PER_EMPTY = 0.35
LATER_VALUE_EPOCH_1 = 4.0
LATER_VALUE_EPOCH_2 = 2.0
HOLD_PER_EMPTY = 0.25
RESERVE_PER_RANK = 8.0
EPOCH_SPREAD = 25.0

NO_NODE = -1
MAX_DEPTH = 4096  # the longest path an iteration walks
POOL_PER_ITERATION = 64  # candidates a node lists, on average over a search


class ScoringRules(NamedTuple):
    """The arrays scoring.py's functions read, alone: a compiled call increments the count of
    every array it is handed, and the search's inner loops call them hundreds of times."""

    lines: np.ndarray
    pieces: np.ndarray
    neighbours: np.ndarray
    cell_lines: np.ndarray


def scoring_rules(rules: KernelRules) -> ScoringRules:
    return ScoringRules(rules.lines, rules.pieces, rules.neighbours, rules.cell_lines)


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
    )


# ---------------------------------------------------------------- what a position is worth


@numba.njit(cache=True)
def segment_outlook(board, lite, rows, empty, dragon, mine) -> None:
    """Per cell (row 0, column 1): the empty cells, dragon and gold mine of its segment."""
    pieces = lite.pieces
    for line in range(lite.lines.shape[0]):
        side = 0 if line < rows else 1
        cells = lite.lines[line]
        start = 0
        length = 0
        while length < cells.shape[0] and cells[length] >= 0:
            length += 1
        for position in range(length + 1):
            if position < length and pieces[board[cells[position]], KIND] != MOUNTAIN:
                continue
            holes = 0
            has_dragon = has_mine = False
            for k in range(start, position):
                kind = pieces[board[cells[k]], KIND]
                holes += board[cells[k]] == 0
                has_dragon |= kind == DRAGON
                has_mine |= kind == GOLD_MINE
            for k in range(start, position):
                empty[side, cells[k]] = holes
                dragon[side, cells[k]] = has_dragon
                mine[side, cells[k]] = has_mine
            start = position + 1


@numba.njit(cache=True)
def expected_fill(state, pieces, players, viewer) -> float:
    """The expected value a still-empty cell adds to its segments' base (as the heuristic's)."""
    total = 0
    value = 0.0
    for tile in range(1, state.supply.shape[0]):
        unseen = state.supply[tile]
        for seat in range(players):
            if seat != viewer and state.held[seat] == tile:
                unseen += 1
        total += unseen
        value += unseen * pieces[tile, VALUE]
    empties = state.scalars[EMPTY]
    if total == 0 or empties == 0:
        return 0.0
    to_come = state.castles.sum()
    share = min(1.0, max(0.0, (empties - to_come / 2) / empties))
    return value / total * share


@numba.njit(cache=True, inline="always")
def castle_outlook(effective, rank, cell, expected, empty, dragon, mine, placed, epoch) -> float:
    """What a castle's lines are likely to add by the epoch's end, less a risk charge, less (for
    one still held) what its rank would earn later."""
    others_open = 0 if placed else 1
    future = 0.0
    open_cells = 0
    for side in range(2):
        holes = empty[side, cell] - others_open
        open_cells += holes
        fill = expected * holes
        if dragon[side, cell]:
            fill = min(fill, 0.0)
        future += fill * (2 if mine[side, cell] else 1)
    outlook = effective * future - RISK_PER_EMPTY * effective * effective * open_cells
    if rank >= 2 and not placed:
        if epoch == 1:
            outlook -= rank * LATER_VALUE_EPOCH_1
        elif epoch == 2:
            outlook -= rank * LATER_VALUE_EPOCH_2
    return outlook


@numba.njit(cache=True)
def standing_gold(state, lite, players, score_as_you_go, totals) -> None:
    """Each seat's gold if the epoch ended now (banked plus the board as it stands)."""
    for seat in range(players):
        totals[seat] = state.gold[seat]
    phase = state.scalars[PHASE]
    if score_as_you_go or not (phase == TURN or phase == DRAWN or phase == PLACE):
        return
    now = np.zeros(state.gold.shape[0], dtype=np.int64)
    score_gold(state.board, lite, now)
    for seat in range(players):
        totals[seat] += now[seat]


@numba.njit(cache=True)
def leaf_win_shares(state, rules, lite, reward) -> None:
    """Each seat's expected win_share: exact when the game is over, else a logistic of its gold
    as it stands plus its castles' outlook and held ranks, the spread widening with the epochs
    left (the leaf evaluation; mcts.py's)."""
    players = rules.params[PLAYERS]
    strength = np.zeros(players, dtype=np.float64)
    standing_gold(state, lite, players, rules.params[SCORE_AS_YOU_GO], strength)
    phase = state.scalars[PHASE]
    if phase == OVER:
        best = strength.max()
        winners = 0
        for seat in range(players):
            winners += strength[seat] == best
        for seat in range(players):
            reward[seat] = 1.0 / winners if strength[seat] == best else 0.0
        return
    board = state.board
    pieces = lite.pieces
    if phase == TURN or phase == DRAWN or phase == PLACE:
        cells = board.shape[0]
        empty = np.zeros((2, cells), dtype=np.int64)
        dragon = np.zeros((2, cells), dtype=np.bool_)
        mine = np.zeros((2, cells), dtype=np.bool_)
        segment_outlook(board, lite, rules.params[ROWS], empty, dragon, mine)
        expected = expected_fill(state, pieces, players, state.scalars[TO_MOVE])
        wizard = wizard_cell(board, lite)
        epoch = state.scalars[EPOCH]
        for cell in range(cells):
            piece = board[cell]
            if pieces[piece, KIND] == CASTLE:
                effective = castle_rank(board, cell, wizard, lite)
                strength[pieces[piece, SEAT]] += castle_outlook(
                    effective, pieces[piece, RANK], cell, expected, empty, dragon, mine, True, epoch
                )
    epochs_left = rules.params[EPOCHS] - state.scalars[EPOCH] + 1
    spread = EPOCH_SPREAD * math.sqrt(max(epochs_left, 1))
    for seat in range(players):
        for rank in range(1, 4):
            strength[seat] += RESERVE_PER_RANK * (rank + 1) * state.castles[seat, rank]
    top = strength.max()
    total = 0.0
    for seat in range(players):
        reward[seat] = math.exp((strength[seat] - top) / spread)
        total += reward[seat]
    for seat in range(players):
        reward[seat] /= total


@numba.njit(cache=True)
def lines_gold(board, lite, rank, cell, gold, ranks) -> None:
    """Each seat's gold from the row and the column through `cell`, into `gold` (zeroed)."""
    gold[:] = 0
    for line in lite.cell_lines[cell]:
        add_line_gold(board, line, rank, lite, gold, ranks)


@numba.njit(cache=True)
def piece_gains(board, lite, rank, wizard, cell, piece, before, gains, ranks) -> int:
    """Each seat's gold change (into `gains`) from putting `piece` on the empty `cell`, given
    the gold of its lines `before`; the board is left as it was. Returns the piece's effective
    castle rank there (0 for a tile)."""
    board[cell] = piece
    if lite.pieces[piece, KIND] == WIZARD:  # the wizard changes ranks beyond its lines
        ranks[:] = 0
        gains[:] = 0
        score_gold(board, lite, gains)
        board[cell] = 0
        score_gold(board, lite, ranks)
        for seat in range(gains.shape[0]):
            gains[seat] -= ranks[seat]
            ranks[seat] = 0
        return 0
    effective = castle_rank(board, cell, wizard, lite)
    rank[cell] = effective
    lines_gold(board, lite, rank, cell, gains, ranks)
    board[cell] = 0
    rank[cell] = 0
    for seat in range(gains.shape[0]):
        gains[seat] -= before[cell, seat]
    return effective


@numba.njit(cache=True, inline="always")
def margin(totals, gains, seat, players) -> float:
    """Own gold minus the best opponent's, after the gains."""
    best_other = -1e18
    for other in range(players):
        if other != seat:
            best_other = max(best_other, totals[other] + gains[other])
    return totals[seat] + gains[seat] - best_other


@numba.njit(cache=True)
def best_tile_margin(board, lite, rank, wizard, tile, before, totals, seat, players, gains, ranks):
    """The best margin placing `tile` on some empty cell reaches."""
    best = -1e18
    for cell in range(board.shape[0]):
        if board[cell] == 0:
            piece_gains(board, lite, rank, wizard, cell, tile, before, gains, ranks)
            best = max(best, margin(totals, gains, seat, players))
    return best


@numba.njit(cache=True)
def order_values(state, rules, lite, actions, count, values, value_draw) -> None:
    """The heuristic agent's value of each candidate (the greedy margin plus its habits), for
    the move order; a draw is valued first of all unless `value_draw` asks its expectation."""
    seat = state.scalars[TO_MOVE]
    players = rules.params[PLAYERS]
    board = state.board
    cells = board.shape[0]
    seats = state.gold.shape[0]
    totals = np.zeros(seats, dtype=np.float64)
    standing_gold(state, lite, players, rules.params[SCORE_AS_YOU_GO], totals)
    rank = np.zeros(cells, dtype=np.int64)
    effective_ranks(board, lite, rank)
    wizard = wizard_cell(board, lite)
    gains = np.zeros(seats, dtype=np.int64)
    ranks = np.zeros(seats, dtype=np.int64)
    before = np.zeros((cells, seats), dtype=np.int64)
    for cell in range(cells):
        if board[cell] == 0:
            lines_gold(board, lite, rank, cell, before[cell], ranks)
    empty = np.zeros((2, cells), dtype=np.int64)
    dragon = np.zeros((2, cells), dtype=np.bool_)
    mine = np.zeros((2, cells), dtype=np.bool_)
    segment_outlook(board, lite, rules.params[ROWS], empty, dragon, mine)
    expected = expected_fill(state, lite.pieces, players, seat)
    epoch = state.scalars[EPOCH]
    hold_value = HOLD_PER_EMPTY * (state.scalars[EMPTY] - 2 * players)
    first_ids = rules.actions
    for index in range(count):
        action = actions[index]
        block = action_block(rules, action)
        at = action - first_ids[block]
        if CASTLE_1 <= block < CASTLE_1 + 4:
            piece = rules.castle_code[seat, block - CASTLE_1]
            effective = piece_gains(board, lite, rank, wizard, at, piece, before, gains, ranks)
            values[index] = margin(totals, gains, seat, players) + castle_outlook(
                effective, block - CASTLE_1 + 1, at, expected, empty, dragon, mine, False, epoch
            )
        elif block == START or block == PLACE_DRAWN:
            piece = state.held[seat] if block == START else state.scalars[PENDING]
            piece_gains(board, lite, rank, wizard, at, piece, before, gains, ranks)
            values[index] = margin(totals, gains, seat, players)
            if block == START:
                values[index] -= hold_value
        elif block == DRAW:
            if not value_draw:
                values[index] = 1e18
                continue
            total = 0.0
            weight = 0
            for tile in range(1, state.supply.shape[0]):
                unseen = state.supply[tile]
                for other in range(players):
                    if other != seat and state.held[other] == tile:
                        unseen += 1
                if unseen:
                    total += unseen * best_tile_margin(
                        board, lite, rank, wizard, tile, before, totals, seat, players, gains,
                        ranks,
                    )  # fmt: skip
                    weight += unseen
            values[index] = total / weight
        elif block == CHOOSE:
            values[index] = best_tile_margin(
                board, lite, rank, wizard, at, before, totals, seat, players, gains, ranks
            )
        elif block == PASS:
            values[index] = 0.0


# ---------------------------------------------------------------- the search


@numba.njit(cache=True)
def determinise(state, rules, viewer: int, holds) -> None:
    """Deal every other seat that holds a starting tile one from the tiles `viewer` has not
    seen (the state's supply, which counts them)."""
    for seat in range(rules.params[PLAYERS]):
        if seat == viewer or not holds[seat]:
            continue
        pick = np.random.random() * state.scalars[SUPPLY_SIZE]
        tile = 1
        while tile < state.supply.shape[0] - 1:
            pick -= state.supply[tile]
            if pick < 0:
                break
            tile += 1
        while state.supply[tile] == 0:  # rounding at the very end of the range
            tile -= 1
        state.supply[tile] -= 1
        state.scalars[SUPPLY_SIZE] -= 1
        state.held[seat] = tile


@numba.njit(cache=True)
def sample_chance(state, rules, outcomes, weights) -> int:
    count = chance_outcomes(state, rules, outcomes, weights)
    total = 0
    for k in range(count):
        total += weights[k]
    pick = np.random.random() * total
    for k in range(count):
        pick -= weights[k]
        if pick < 0:
            return outcomes[k]
    return outcomes[count - 1]


@numba.njit(cache=True)
def copy_state(source, target) -> None:
    target.scalars[:] = source.scalars
    target.board[:] = source.board
    target.gold[:] = source.gold
    target.castles[:] = source.castles
    target.held[:] = source.held
    target.supply[:] = source.supply
    target.gains[:] = source.gains


@numba.njit(cache=True)
def expand(tree, node, state, rules, lite, pool_used, scratch, values, value_draw) -> int:
    """List a decision node's legal actions into the pool, best first; returns the pool used."""
    count = legal_actions(state, rules, scratch)
    if count > 1:
        order_values(state, rules, lite, scratch, count, values, value_draw)
        order = np.argsort(-values[:count], kind="mergesort")
    else:
        order = np.zeros(1, dtype=np.int64)
    tree.first[node] = pool_used
    tree.candidates[node] = count
    for k in range(count):
        tree.pool_action[pool_used + k] = scratch[order[k]]
        tree.pool_child[pool_used + k] = NO_NODE
    return pool_used + count


@numba.njit(cache=True)
def select(tree, node, seat, widening, exploration, always_open) -> int:
    """UCB1 among the candidates opened so far (an untried one first); returns its pool slot."""
    visits = tree.visits[node]
    opened = max(always_open, 1 + int(widening * math.sqrt(visits)))
    opened = min(opened, tree.candidates[node])
    first = tree.first[node]
    log_visits = math.log(visits + 1)
    best, best_score = first, -1.0
    for slot in range(first, first + opened):
        child = tree.pool_child[slot]
        if child == NO_NODE or tree.visits[child] == 0:
            return slot
        n = tree.visits[child]
        score = tree.totals[child, seat] / n + exploration * math.sqrt(log_visits / n)
        if score > best_score:
            best, best_score = slot, score
    return best


@numba.njit(cache=True)
def new_node(tree, used) -> int:
    tree.visits[used] = 0
    tree.totals[used] = 0.0
    tree.first[used] = NO_NODE
    tree.candidates[used] = 0
    tree.child[used] = NO_NODE
    tree.sibling[used] = NO_NODE
    tree.key[used] = -1
    return used


@numba.njit(cache=True)
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


@numba.njit(cache=True)
def search(root, work, rules, lite, holds, iterations, seed, settings, tree, include, root_actions,
           root_visits, root_values) -> int:  # fmt: skip
    """Search `iterations` times from `root` as its seat to move sees it (`lite`: its rules'
    `scoring_rules`; other seats' starting tiles in the supply, `holds` saying who holds one);
    `include` actions (-1 padded) are searched whatever their rank. Writes every root candidate,
    its visits and its expected win_share for the seat; returns how many candidates there are."""
    np.random.seed(seed)
    seats = root.gold.shape[0]
    viewer = root.scalars[TO_MOVE]
    exploration = settings[EXPLORATION]
    widening = settings[WIDENING]
    last_epoch = root.scalars[EPOCH] + int(settings[HORIZON])
    nodes = tree.visits.shape[0]
    pool = tree.pool_action.shape[0]
    scratch = np.zeros(rules.actions[rules.actions.shape[0] - 1], dtype=np.int64)
    weights = np.zeros(scratch.shape[0], dtype=np.int64)
    values = np.zeros(scratch.shape[0], dtype=np.float64)
    reward = np.zeros(seats, dtype=np.float64)
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    used = 1
    new_node(tree, 0)
    copy_state(root, work)
    determinise(work, rules, viewer, holds)  # the supply's true size decides whether to draw
    pool_used = expand(tree, 0, work, rules, lite, 0, scratch, values, True)
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
        copy_state(root, work)
        determinise(work, rules, viewer, holds)
        node = 0
        depth = 0
        path[0] = 0
        s = work.scalars
        while (
            s[PHASE] != OVER and s[EPOCH] <= last_epoch and used < nodes - 1 and depth < MAX_DEPTH
        ):
            phase = s[PHASE]
            if phase == TURN or phase == PLACE:
                if tree.visits[node] == 0 and node != 0:
                    break
                if tree.first[node] == NO_NODE:
                    if pool_used + scratch.shape[0] > pool:
                        break
                    pool_used = expand(
                        tree, node, work, rules, lite, pool_used, scratch, values, False
                    )
                seat = s[TO_MOVE]
                slot = select(
                    tree, node, seat, widening, exploration, always_open if node == 0 else 1
                )
                apply_action(work, rules, tree.pool_action[slot])
                child = tree.pool_child[slot]
                if child == NO_NODE:
                    child = new_node(tree, used)
                    used += 1
                    tree.pool_child[slot] = child
            else:
                outcome = sample_chance(work, rules, scratch, weights)
                apply_action(work, rules, outcome)
                child, used = chance_child(tree, node, outcome, used)
            node = child
            depth += 1
            path[depth] = node
        leaf_win_shares(work, rules, lite, reward)
        for k in range(depth + 1):
            visited = path[k]
            tree.visits[visited] += 1
            for seat in range(seats):
                tree.totals[visited, seat] += reward[seat]
    count = tree.candidates[0]
    for k in range(count):
        slot = tree.first[0] + k
        root_actions[k] = tree.pool_action[slot]
        child = tree.pool_child[slot]
        if child == NO_NODE or tree.visits[child] == 0:
            root_visits[k] = 0
            root_values[k] = -1.0
        else:
            root_visits[k] = tree.visits[child]
            root_values[k] = tree.totals[child, viewer] / tree.visits[child]
    return count
