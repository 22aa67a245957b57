"""The evaluator: expected win_shares and the best action, and a whole game's move review.

`evaluate` searches from the seat to move's point of view (its observation only, unless the
omniscient view is asked for), with a fixed budget of iterations, so a seed reproduces it.
A reviewed move's loss is the expected win_share of the evaluator's best action minus that
of the action played; the metrics spec turns the loss into a class.

Once a game is decided (the mover's expected win_share within `DECIDED` of 0 or 1) every move
loses about nothing, so there the best move is the one with the most expected gold, and the
gold a move gives up is its loss for the class, counted as `WIN_SHARE_PER_GOLD` per gold.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from engine import moves, pieces
from engine.actions import Block
from engine.agents.mcts import EPOCH_SPREAD, search_observation, search_state
from engine.moves import Move
from engine.state import Game, State
from engine.turns import Turn, walk

DEFAULT_BUDGET = 300
# Upper bounds of the loss of expected win_share per class (metrics spec, move quality).
CLASS_LIMITS = (("excellent", 0.02), ("good", 0.05), ("inaccuracy", 0.10), ("mistake", 0.20))
BEST = "best"
BLUNDER = "blunder"
DECIDED = 0.02  # a mover this close to a win_share of 0 or 1 is judged by gold
# A gold's weight in win_share in an even two-seat game with one epoch to go: the slope of the
# evaluator's logistic there, 1 / (4 · 25) = 0.01; so 2 gold lost is "excellent", 5 "good",
# 10 an "inaccuracy", 20 a "mistake", more a "blunder".
WIN_SHARE_PER_GOLD = 1 / (4 * EPOCH_SPREAD)


@dataclass(frozen=True)
class Evaluation:
    """A position judged from the seat to move's point of view."""

    seat: int
    win_shares: tuple[float, ...]  # expected win_share of every seat
    best_action: int
    best_value: float  # expected win_share of `seat` after the best action
    values: dict[int, float]  # searched action -> expected win_share of `seat` after it
    gold: dict[int, float]  # searched action -> expected gold of `seat` after it

    def loss(self, action: int) -> float:
        """Expected win_share given up by playing `action` instead of the best action."""
        return max(0.0, self.best_value - self.values[action])

    @property
    def richest_action(self) -> int:
        """The searched action with the most expected gold for `seat`."""
        return max(self.gold, key=self.gold.__getitem__)

    def gold_loss(self, action: int, instead: int) -> float:
        """Expected gold given up by playing `action` rather than `instead` (never below 0)."""
        return max(0.0, self.gold[instead] - self.gold[action])


def evaluate(
    state: State,
    budget: int = DEFAULT_BUDGET,
    seed: int | str = 0,
    omniscient: bool = False,
    include: Iterable[int] = (),
) -> Evaluation:
    """Judge the position where a seat is to move; `include` actions are always searched."""
    if state.is_chance_node() or state.is_terminal():
        raise ValueError("only a position with a seat to move can be evaluated")
    rng = random.Random(seed)
    seat = state.current_player()
    if omniscient:
        result = search_state(state, budget, rng, include)
    else:
        result = search_observation(
            state.observation(seat), state.legal_actions(), budget, rng, include
        )
    best = result.best_action
    return Evaluation(
        seat, result.win_shares, best, result.values[best], result.values, result.gold
    )


def is_decided(win_share: float) -> bool:
    """Whether a mover's expected win_share leaves nothing to win or lose (see DECIDED)."""
    return win_share <= DECIDED or win_share >= 1 - DECIDED


def classify(loss: float, is_best: bool = False) -> str:
    """The move-quality class of a loss of expected win_share."""
    if is_best or loss <= 0:
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
    loss: float  # expected win_share given up
    gold_loss: float  # expected gold given up against the preferred move
    decided: bool  # judged by gold: the mover's win_share was settled (see DECIDED)
    quality: str
    best: Move | None  # the evaluator's preferred move when it differs from the one played

    @property
    def win_share_before(self) -> float:
        """The mover's expected win_share before the move."""
        return self.win_shares[self.seat]


def iter_reviews(
    game: Game,
    actions: Sequence[int],
    budget: int = DEFAULT_BUDGET,
    seed: int | str = 0,
    omniscient: bool = False,
) -> Iterator[MoveReview]:
    """Judge every turn of a game given as its action list, one turn at a time.

    A draw is judged twice, the choice to draw and the placement of the tile seen; its loss is
    the sum. Turns with a single legal action are best by definition and cost no search. Whether
    the game is decided is read before the turn's first decision.
    """
    for index, item in enumerate(walk(game, actions)):
        if isinstance(item, Turn):
            yield _review_turn(item, budget, f"{seed}:{index}", omniscient)


def move_reviews(
    game: Game,
    actions: Sequence[int],
    budget: int = DEFAULT_BUDGET,
    seed: int | str = 0,
    omniscient: bool = False,
) -> list[MoveReview]:
    """Every turn of a game judged (see iter_reviews)."""
    return list(iter_reviews(game, actions, budget, seed, omniscient))


def _review_turn(turn: Turn, budget: int, seed: str, omniscient: bool) -> MoveReview:
    state = turn.before.clone()
    loss = gold_loss = 0.0
    before: tuple[float, ...] | None = None
    decided = False
    best: Move | None = None
    for step, action in enumerate(turn.actions):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            judged = evaluate(state, budget, f"{seed}:{step}", omniscient, include=(action,))
            if before is None:
                before = judged.win_shares
                decided = is_decided(before[turn.seat])
            preferred = judged.richest_action if decided else judged.best_action
            step_loss = judged.loss(action)
            step_gold = judged.gold_loss(action, preferred)
            if preferred != action and (step_gold if decided else step_loss) > 0:
                loss += step_loss
                gold_loss += step_gold
                if best is None:
                    best = _best_move(state, preferred)
        state.apply_action(action)
    judged_loss = gold_loss * WIN_SHARE_PER_GOLD if decided else loss
    return MoveReview(
        epoch=turn.epoch,
        seat=turn.seat,
        move=turn.move,
        win_shares=before if before is not None else _even_shares(turn.before.players),
        loss=loss,
        gold_loss=gold_loss,
        decided=decided,
        quality=classify(judged_loss, best is None),
        best=best,
    )


def _even_shares(players: int) -> tuple[float, ...]:
    """The expected win_shares of a turn nobody could play differently: no search is run."""
    return (1.0 / players,) * players


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
