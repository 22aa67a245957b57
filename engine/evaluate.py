"""The evaluator: the strong search's expected win_shares and best action, and a whole game's
move review.

`evaluate` searches with the strong agent's compiled search (engine/agents/strong.py) from the
seat to move's observation only, what that player could know, with a fixed budget of
iterations, so a seed reproduces it. A played move is then measured against every action the
search opened, all played out on the same deals (common random numbers): its loss is the
expected win_share of the best of them minus its own. Which of several near-equal actions the
search's visits favour changes with its seed; their paired values hardly do. More deals are
added to the close contenders until the loss is clear of every class limit (by `CONFIDENCE`
standard errors) or the most deals are dealt; the metrics spec turns the loss into a class.

Once a game is decided (the mover's expected win_share within `DECIDED` of 0 or 1) every move
loses about nothing, so there the preferred move is the one the heuristic values most in gold,
and the gold a move gives up is its loss at `WIN_SHARE_PER_GOLD` a gold. Every move has one
loss, in win share, and its class follows that loss alone (`class_loss`, `classify`): two moves
of one game never get classes in the opposite order of their losses. Gold values come from the
heuristic agent's valuing (engine/agents/greedy.py `Position.values`) only.

The search values its root for the seat to move only. A review's `win_shares` (every seat's
expected win_share before a move) therefore take the mover's from this move's search and each
other seat's from its own latest turn, scaled so that the seats share the rest of 1.

A seat's **luck** at a chance event it meets (the tile it draws, the starting tile it is dealt)
is its expected win_share with the outcome it met minus the mean over the outcomes it could
have met, each weighted by its chance from what the seat knows (`draw_luck`, `deal_luck`);
every outcome is played out on the same deals, so their differences carry little of the other
chances.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine import moves, pieces
from engine.actions import Block
from engine.agents.greedy import Position
from engine.agents.strong import STRONG_ITERATIONS, Searcher
from engine.moves import Move
from engine.state import DRAWN, Game, Observation, State
from engine.turns import Turn, walk

DEFAULT_BUDGET = STRONG_ITERATIONS  # the `strong` agent's own budget
# Raised whenever the same game, budget and seed would be judged otherwise: a review stored by
# another version is made again (data/reviews.py).
VERSION = 4
# Deals a played move and the search's actions are first measured on, and added to its close
# contenders at a time, per iteration of the budget; the most deals a measure takes; how many
# standard errors clear of a class limit its loss must be to stop.
DEALS_PER_ITERATION = 0.05
MOST_DEALS_PER_ITERATION = 0.8
CONFIDENCE = 1.5
# Upper bounds of the loss of expected win_share per class (metrics spec, move quality).
CLASS_LIMITS = (("excellent", 0.02), ("good", 0.05), ("inaccuracy", 0.10), ("mistake", 0.20))
BEST = "best"
BLUNDER = "blunder"
# A loss of at most one win-share point is a tie with the best action (two seeds' measures of
# such a loss often fall either side of nothing).
TIE = 0.01
DECIDED = 0.02  # a mover this close to a win_share of 0 or 1 is judged by gold
# A gold's weight in win_share: the slope of the search's 2-player logistic between two even
# seats, 1 / (4 · spread), where the spread is 25 gold, about 60 cells before the end
# (engine/kernel/search.py); so 2 gold lost is "excellent", 5 "good", 10 an "inaccuracy",
# 20 a "mistake", more a "blunder".
WIN_SHARE_PER_GOLD = 0.01
# How a decided move's loss was measured, said beside it wherever a loss is shown.
JUDGED_BY_GOLD = f"decided: judged by gold lost, 1 gold = {WIN_SHARE_PER_GOLD:g}"
# Deals each possible outcome of a chance event is played out on, per iteration of the budget.
LUCK_DEALS_PER_ITERATION = 0.05


@dataclass(frozen=True)
class Evaluation:
    """A position judged from the seat to move's point of view."""

    seat: int
    best_action: int  # the measured best against a played action, else the most visited
    best_value: float  # expected win_share of `seat` after the search's most visited action
    values: dict[int, float]  # searched action -> expected win_share of `seat` after it
    given_up: dict[int, float]  # the played action -> its measured loss against the best
    gold: dict[int, float]  # legal action -> the heuristic's value of it in gold for `seat`

    def loss(self, action: int) -> float:
        """Expected win_share given up by playing `action` (the best or the played one)
        instead of the best action (0 for a tie with it, see TIE)."""
        given_up = 0.0 if action == self.best_action else self.given_up[action]
        return given_up if given_up > TIE else 0.0

    @property
    def richest_action(self) -> int:
        """The legal action the heuristic values most in gold."""
        return max(self.gold, key=self.gold.__getitem__)

    def gold_loss(self, action: int, instead: int) -> float:
        """Gold given up by playing `action` rather than `instead` (never below 0)."""
        return max(0.0, self.gold[instead] - self.gold[action])


def evaluate(
    state: State,
    budget: int = DEFAULT_BUDGET,
    seed: int | str = 0,
    played: int | None = None,
    searcher: Searcher | None = None,
) -> Evaluation:
    """Judge the position where a seat is to move; a `played` action is always searched and
    its loss measured, unless the position is decided (a `searcher` of the budget may be
    passed to reuse its tree arrays)."""
    if state.is_chance_node() or state.is_terminal():
        raise ValueError("only a position with a seat to move can be evaluated")
    if searcher is None or searcher.iterations != budget:
        searcher = Searcher(budget)
    seat = state.current_player()
    observation = state.observation(seat)
    seeds = random.Random(seed)  # a text seed hashes the same every run
    include = () if played is None else (played,)
    result = searcher.search(observation, seeds.getrandbits(32), include)
    best = result.best_action
    value = result.values[best]
    given_up = {}
    if played is not None:
        if is_decided(value):
            given_up[played] = 0.0
        else:
            best, given_up[played] = _measured_loss(
                searcher, observation, played, list(result.visits), seeds.getrandbits(32)
            )
    return Evaluation(seat, best, value, result.values, given_up, gold_values(state))


def _measured_loss(
    searcher: Searcher, observation: Observation, played: int, searched: list[int], seed: int
) -> tuple[int, float]:
    """The best of the searched actions measured against `played` on shared deals, and the
    win_share `played` gives up to it (`played` itself and 0 when none does better)."""
    rivals = [action for action in searched if action != played]
    if not rivals:
        return played, 0.0
    batch = max(2, round(DEALS_PER_ITERATION * searcher.iterations))
    most = max(batch, round(MOST_DEALS_PER_ITERATION * searcher.iterations))
    limits = (TIE, *(limit for _, limit in CLASS_LIMITS))
    seeds = random.Random(seed)
    margins: list[list[float]] = [[] for _ in rivals]  # each rival's margin over played, a deal
    measured = list(range(len(rivals)))
    dealt = 0
    while True:
        actions = [played, *(rivals[k] for k in measured)]
        values = searcher.deal_values(observation, actions, batch, seeds.getrandbits(32))
        for column, k in enumerate(measured, 1):
            margins[k].extend(values[:, column] - values[:, 0])
        dealt += batch
        means = np.array([np.mean(margin) for margin in margins])
        reach = CONFIDENCE * np.array([np.std(m, ddof=1) / np.sqrt(len(m)) for m in margins])
        top = int(np.argmax(means))
        lower, upper = means[top] - reach[top], float(np.max(means + reach))
        if dealt >= most or not any(lower < limit < upper for limit in limits):
            break
        measured = [k for k in range(len(rivals)) if means[k] + reach[k] >= lower]
    loss = float(means[top])
    return (rivals[top], loss) if loss > 0 else (played, 0.0)


def gold_values(state: State) -> dict[int, float]:
    """The heuristic's value in gold of each legal action of the seat to move, from what that
    seat can see."""
    legal = state.legal_actions()
    position = Position.from_observation(state.observation(state.current_player()))
    return dict(zip(legal, (float(value) for value in position.values(legal, True)), strict=True))


def draw_luck(state: State, searcher: Searcher, seed: int) -> float:
    """The luck of the tile the seat to move has just drawn and is to place (see
    _outcome_luck)."""
    return _outcome_luck(state, False, searcher, seed)


def deal_luck(state: State, searcher: Searcher, seed: int) -> float:
    """The luck of the starting tile the seat to move holds, at its first turn after the deal:
    0 when it holds none (see _outcome_luck)."""
    if not state.start_tiles[state.current_player()]:
        return 0.0
    return _outcome_luck(state, True, searcher, seed)


def _outcome_luck(state: State, dealt: bool, searcher: Searcher, seed: int) -> float:
    """The seat to move's expected win_share with the tile it met (its starting tile when
    `dealt`, else the tile it drew) minus the mean over the tiles it could have met, each as
    likely as its share of the tiles the seat has not seen; each tile is played as the
    heuristic values most and then played out on the same deals."""
    observation = state.observation(state.current_player())
    tile_met = observation.own_start if dealt else observation.pending_tile
    pool = list(observation.unseen)
    pool[tile_met] += 1
    legal = state.legal_actions()
    deals = max(2, round(LUCK_DEALS_PER_ITERATION * searcher.iterations))
    expected = value_met = 0.0
    for tile, count in enumerate(pool):
        if not count:
            continue
        unseen = pool.copy()
        unseen[tile] -= 1
        view = (
            replace(observation, unseen=tuple(unseen), own_start=tile)
            if dealt
            else replace(observation, unseen=tuple(unseen), pending_tile=tile)
        )
        heuristic = Position.from_observation(view).values(legal, True)
        action = legal[int(np.argmax(heuristic))]
        value = float(np.mean(searcher.deal_values(view, [action], deals, seed)))
        expected += count * value / sum(pool)
        if tile == tile_met:
            value_met = value
    return value_met - expected


def is_decided(win_share: float) -> bool:
    """Whether a mover's expected win_share leaves nothing to win or lose (see DECIDED)."""
    return win_share <= DECIDED or win_share >= 1 - DECIDED


def classify(loss: float) -> str:
    """The move-quality class of a move's loss (see class_loss): best for none."""
    if loss <= 0:
        return BEST
    for name, limit in CLASS_LIMITS:
        if loss <= limit:
            return name
    return BLUNDER


@dataclass(frozen=True)
class MoveReview:
    """One turn of a game, judged: what was played, what it cost, and what was better."""

    epoch: int
    seat: int
    move: Move
    win_shares: tuple[float, ...]  # every seat's expected win_share before the move
    win_share_loss: float  # expected win_share given up, as the search measured it
    gold_loss: float  # gold given up against the preferred move, by the heuristic's values
    decided: bool  # judged by gold: the mover's win_share was settled (see DECIDED)
    quality: str
    best: Move | None  # the evaluator's preferred move when it differs from the one played
    draw_luck: float = 0.0  # the mover's luck in the tile it drew (see draw_luck)
    deal_luck: float = 0.0  # its luck in the starting tile dealt, at its epoch's first turn

    @property
    def win_share_before(self) -> float:
        """The mover's expected win_share before the move."""
        return self.win_shares[self.seat]

    @property
    def loss(self) -> float:
        """The move's one loss, which its class follows (see class_loss)."""
        return class_loss(self.win_share_loss, self.gold_loss, self.decided)


def class_loss(win_share_loss: float, gold_loss: float, decided: bool) -> float:
    """A move's one loss, in win share: the win_share it gave up, or once the game is decided
    its gold given up at WIN_SHARE_PER_GOLD a gold (JUDGED_BY_GOLD)."""
    return gold_loss * WIN_SHARE_PER_GOLD if decided else win_share_loss


def iter_reviews(
    game: Game, actions: Sequence[int], budget: int = DEFAULT_BUDGET, seed: int | str = 0
) -> Iterator[MoveReview]:
    """Judge every turn of a game given as its action list, one turn at a time.

    A draw is judged twice, the choice to draw and the placement of the tile seen; its loss is
    the sum. Turns with a single legal action are best by definition and cost no search.
    Whether the game is decided is read at the turn's first decision.
    """
    searcher = Searcher(budget)
    latest = [1.0 / game.players] * game.players  # each seat's expected win_share, last judged
    turned: set[tuple[int, int]] = set()  # (epoch, seat) of the turns met so far
    for index, item in enumerate(walk(game, actions)):
        if isinstance(item, Turn):
            first = (item.epoch, item.seat) not in turned
            turned.add((item.epoch, item.seat))
            review = _review_turn(item, searcher, f"{seed}:{index}", latest, first)
            latest = list(review.win_shares)
            yield review


def move_reviews(
    game: Game, actions: Sequence[int], budget: int = DEFAULT_BUDGET, seed: int | str = 0
) -> list[MoveReview]:
    """Every turn of a game judged (see iter_reviews)."""
    return list(iter_reviews(game, actions, budget, seed))


@dataclass(frozen=True)
class TurnJudgement:
    """A turn's actions judged decision by decision, as a review judges them."""

    loss: float  # expected win_share given up over the turn's costly decisions
    gold_loss: float  # the gold given up at them
    before: float | None  # the mover's expected win_share at its first decision (None: no choice)
    decided: bool  # whether the game was decided then (moves are judged by gold)
    best: tuple[int, int] | None  # (step, preferred action) at the first costly decision


def judge_turn(
    state: State,
    actions: Sequence[int],
    searcher: Searcher,
    seed: str,
    after_draw: Callable[[State], None] | None = None,
) -> TurnJudgement:
    """Apply a turn's `actions` to `state`, judging every decision with a choice by `evaluate`
    (seeded `seed:step`); `after_draw` sees the state just after a tile is drawn."""
    loss = gold_loss = 0.0
    before: float | None = None
    decided = False
    best: tuple[int, int] | None = None
    for step, action in enumerate(actions):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            judged = evaluate(state, searcher.iterations, f"{seed}:{step}", action, searcher)
            if before is None:
                before = judged.best_value
                decided = is_decided(before)
            preferred = judged.richest_action if decided else judged.best_action
            step_loss = judged.loss(action)
            step_gold = judged.gold_loss(action, preferred)
            costly = class_loss(step_loss, step_gold, decided) > (TIE if decided else 0.0)
            if preferred != action and costly:
                loss += step_loss
                gold_loss += step_gold
                if best is None:
                    best = (step, preferred)
        drawn = state.phase == DRAWN
        state.apply_action(action)
        if drawn and after_draw is not None:
            after_draw(state)
    return TurnJudgement(loss, gold_loss, before, decided, best)


def _review_turn(
    turn: Turn, searcher: Searcher, seed: str, latest: list[float], first: bool
) -> MoveReview:
    state = turn.before.clone()
    lucky = random.Random(f"{seed}:luck")  # a text seed hashes the same every run
    dealt = deal_luck(state, searcher, lucky.getrandbits(32)) if first else 0.0
    drawn: list[float] = []
    judged = judge_turn(
        state,
        turn.actions,
        searcher,
        seed,
        lambda after: drawn.append(draw_luck(after, searcher, lucky.getrandbits(32))),
    )
    loss, gold_loss, before, decided = judged.loss, judged.gold_loss, judged.before, judged.decided
    best = None
    if judged.best is not None:
        step, preferred = judged.best
        at = turn.before.clone()
        for action in turn.actions[:step]:
            at.apply_action(action)
        best = _best_move(at, preferred)
    return MoveReview(
        epoch=turn.epoch,
        seat=turn.seat,
        move=turn.move,
        win_shares=latest_shares(latest, turn.seat, before),
        win_share_loss=loss,
        gold_loss=gold_loss,
        decided=decided,
        quality=classify(class_loss(loss, gold_loss, decided)),
        best=best,
        draw_luck=sum(drawn, 0.0),
        deal_luck=dealt,
    )


def latest_shares(latest: Sequence[float], seat: int, mover: float | None) -> tuple[float, ...]:
    """Every seat's expected win_share: the mover's as just judged (unchanged when it had no
    choice), the others' as last judged, scaled to share the rest of 1."""
    if mover is None:
        return tuple(latest)
    others = sum(share for other, share in enumerate(latest) if other != seat)
    rest = 1.0 - mover
    return tuple(
        mover
        if other == seat
        else (share * rest / others if others > 0 else rest / (len(latest) - 1))
        for other, share in enumerate(latest)
    )


def _best_move(state: State, action: int) -> Move:
    """The move the evaluator's best action makes (a draw not yet placed has no cell)."""
    codes = state.codes
    block, cell = codes.decode(action)
    if rank := codes.castle_rank(block):
        return Move(moves.CASTLE, cell, rank=rank)
    if block == Block.START:
        return Move(moves.START, cell, tile=state.start_tiles[state.seat])
    if block == Block.PLACE:
        return Move(moves.DRAW, cell, tile=state.pending_tile)
    if block == Block.PASS:
        return Move(moves.PASS)
    chosen = cell if block == Block.CHOOSE else 0
    return Move(moves.DRAW, None, tile=chosen)


def describe(move: Move, game: Game) -> str:
    """A move as a record writes it; a draw whose cell is not chosen yet reads `draw`."""
    if move.kind == moves.DRAW and move.cell is None:
        return "draw" if not game.rules.no_luck else f"choose {pieces.piece_token(move.tile)}"
    return move.to_str(game.geometry)
