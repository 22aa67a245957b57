"""Practice from one's own mistakes: a named player's costliest reviewed moves as puzzles, and
the engine's judgement of an answer to one.

A puzzle is a turn of one of the player's recorded games whose stored review found a loss above
the "good" class limit while the game was still open (not judged by gold): the position as the
player met it at the start of that turn, costliest first. An answer is judged as the review
judges a turn (engine/evaluate.py): each decision with a choice is searched from the mover's
observation and its loss measured, a draw's choice and its placement summed, on the seeds the
review used for that turn, so the move the player made is judged as the review judged it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from data.lake import Lake
from data.reader import connect, execute
from data.reviews import load_review
from data.rule_sets import stored_rules
from engine import pieces
from engine.actions import Block
from engine.agents.strong import Searcher
from engine.evaluate import (
    CLASS_LIMITS,
    class_loss,
    classify,
    describe,
    evaluate,
    judge_turn,
)
from engine.moves import CASTLE, DRAW, PASS, START, IllegalMoveError, Move
from engine.state import DRAWN, TURN, Game, State
from engine.turns import Turn, walk

FLOOR = dict(CLASS_LIMITS)["good"]  # a puzzle's move lost more: an inaccuracy or worse
MOST_PUZZLES = 50  # the costliest moves kept as puzzles
LINE_TURNS = 4  # turns in the line the engine expects, its best move first


class PracticeError(ValueError):
    """A puzzle the lake cannot give back (its game or review is gone) or an illegal answer."""


@dataclass(frozen=True)
class Puzzle:
    """One of the player's reviewed turns that lost the most: where it is and what it cost."""

    game_id: int
    ply: int  # the turn's number in the game (its review's ply), the first move 1
    seat: int
    epoch: int
    played: str  # the move made in the game, in the record notation
    loss: float  # the expected win share it gave up, as the review found
    quality: str  # its class
    best: str  # the review's best move instead

    @property
    def key(self) -> str:
        """The puzzle's name in the player's progress: game id and ply."""
        return f"{self.game_id}:{self.ply}"


@dataclass(frozen=True)
class Position:
    """A puzzle's position: the game, its actions before the turn, and the state they lead to."""

    puzzle: Puzzle
    game: Game
    names: tuple[str, ...]  # who sat in each seat
    before: tuple[int, ...]  # the game's actions before the turn
    played: tuple[int, ...]  # the turn's actions in the game
    state: State
    review_seed: str  # the seed the review judged the turn with

    @property
    def seat(self) -> int:
        return self.puzzle.seat

    @property
    def drawn_tile(self) -> int | None:
        """The tile a draw shows: the one drawn at this turn in the game, or where the player
        did not draw, one drawn by chance from the tiles left (the same every time); None
        where the rules have no drawing by chance or nothing is left to draw."""
        state = self.state
        if state.no_luck or not state.supply_size:
            return None
        if len(self.played) == 3:  # draw, the tile, its placement
            return self.played[1]
        trial = state.clone(with_history=False)
        trial.apply_action(state.codes.draw)
        trial.play_chance(random.Random(self.puzzle.key))
        return trial.pending_tile


@dataclass(frozen=True)
class Judgement:
    """An answer judged: what it gave up, the engine's best move and the line it expects."""

    answer: str
    loss: float  # the answer's one loss in win share (its gold's once decided)
    quality: str
    decided: bool  # judged by gold: the mover's expected win share was settled
    win_share: float  # the mover's expected win share before the move
    best: str  # the engine's preferred move (the answer when nothing was better)
    line: tuple[tuple[str, str], ...]  # the turns the engine expects: (seat letter, move)

    @property
    def passed(self) -> bool:
        """Whether the answer is good enough to count as solved: no worse than "good"."""
        return self.loss <= FLOOR


def player_puzzles(lake: Lake, player: str, budget: int, seed: int) -> list[Puzzle]:
    """The player's turns that lost the most in their reviewed recorded games, at most
    MOST_PUZZLES, costliest first (then by game and ply)."""
    seats = execute(connect(lake), "player_seats", {"player": player})
    held = seats.filter(seats["player"] == player).group_by("game_id").agg("seat")
    found: list[Puzzle] = []
    for game_id, letters in held.sort("game_id").iter_rows():
        review = load_review(lake, int(game_id), budget, seed)
        if review is None:
            continue
        for row in review.iter_rows(named=True):
            if row["seat"] in letters and not row["decided"] and row["loss"] > FLOOR:
                found.append(
                    Puzzle(
                        game_id=int(game_id),
                        ply=row["ply"],
                        seat=pieces.SEAT_LETTERS.index(row["seat"]),
                        epoch=row["epoch"],
                        played=row["move"],
                        loss=float(row["loss"]),
                        quality=row["quality"],
                        best=row["best_move"],
                    )
                )
    found.sort(key=lambda puzzle: (-puzzle.loss, puzzle.game_id, puzzle.ply))
    return found[:MOST_PUZZLES]


def puzzle_position(lake: Lake, puzzle: Puzzle, seed: int) -> Position:
    """The puzzle's game replayed to the start of its turn (`seed`: the review's)."""
    found = execute(connect(lake), "game_record", {"game_id": puzzle.game_id})
    if found.is_empty():
        raise PracticeError(f"game {puzzle.game_id} is no longer in the lake")
    stored = found.row(0, named=True)
    game = Game(stored["players"], stored_rules(stored))
    actions: list[int] = list(stored["actions"])
    turns = [
        (index, item) for index, item in enumerate(walk(game, actions)) if isinstance(item, Turn)
    ]
    if not 1 <= puzzle.ply <= len(turns):
        raise PracticeError(f"game {puzzle.game_id} has no move {puzzle.ply}")
    index, turn = turns[puzzle.ply - 1]
    return Position(
        puzzle=puzzle,
        game=game,
        names=tuple(stored["seat_players"]),
        before=tuple(actions[: _turn_start(game, actions, puzzle.ply)]),
        played=turn.actions,
        state=turn.before,
        review_seed=f"{seed}:{index}",
    )


def _turn_start(game: Game, actions: list[int], ply: int) -> int:
    """Where the ply-th turn's actions begin in the game's action list."""
    state = game.new_initial_state()
    turns = 0
    for index, action in enumerate(actions):
        turns += state.phase == TURN
        if turns == ply:
            return index
        state.apply_action(action)
    return len(actions)


def choices(position: Position) -> list[Move]:
    """What the player may answer, each a move without its cell, from the engine's legal
    actions: a castle of each rank held, the starting tile, the tile a draw shows (in no-luck
    each tile that may be chosen), or pass."""
    state = position.state
    codes = state.codes
    found: dict[Move, None] = {}
    for action in state.legal_actions():
        block, offset = codes.decode(action)
        if rank := codes.castle_rank(block):
            found[Move(CASTLE, rank=rank)] = None
        elif block == Block.START:
            found[Move(START, tile=state.start_tiles[position.seat])] = None
        elif block == Block.DRAW:
            found[Move(DRAW, tile=position.drawn_tile or 0)] = None
        elif block == Block.CHOOSE:
            found[Move(DRAW, tile=offset)] = None
        elif block == Block.PASS:
            found[Move(PASS)] = None
    return list(found)


def answer_actions(position: Position, move: Move) -> list[int]:
    """The actions of an answer, or PracticeError with the rules' reason; a drawn tile must
    be the one the puzzle shows (`Position.drawn_tile`)."""
    state = position.state
    drawn = position.drawn_tile
    if move.kind == DRAW and drawn is not None and move.tile != drawn:
        raise PracticeError(f"the tile drawn here is {pieces.piece_token(drawn)}")
    try:
        state.clone(with_history=False).apply_move(move)
    except IllegalMoveError as error:
        raise PracticeError(str(error)) from None
    return state.move_actions(move)


def judge(position: Position, move: Move, budget: int) -> Judgement:
    """The answer judged as the review judges a turn, with the engine's best move and the
    line it expects from the position (see the module's docstring)."""
    actions = answer_actions(position, move)
    searcher = Searcher(budget)
    state = position.state.clone(with_history=False)
    judged = judge_turn(state, actions, searcher, position.review_seed)
    before, decided = judged.before, judged.decided
    one_loss = class_loss(judged.loss, judged.gold_loss, decided)
    best = [*actions[: judged.best[0]], judged.best[1]] if judged.best else None
    line = expected_line(position, best or actions, budget, searcher)
    return Judgement(
        answer=describe(move, position.game),
        loss=one_loss,
        quality=classify(one_loss),
        decided=decided,
        win_share=before if before is not None else 1.0 / position.game.players,
        best=line[0][1],
        line=line,
    )


def expected_line(
    position: Position, first: list[int], budget: int, searcher: Searcher
) -> tuple[tuple[str, str], ...]:
    """The turns the engine expects: `first` (the best move's actions from the position), then
    each seat's best by the evaluator, up to LINE_TURNS turns; it stops where chance comes
    (a tile drawn, an epoch's deal), since what follows depends on it."""
    state = position.state.clone(with_history=False)
    line = list(first)
    for action in first:
        state.apply_action(action)
    turns = 1
    while not state.is_chance_node() and not state.is_terminal():
        if state.phase == TURN:
            if turns == LINE_TURNS:
                break
            turns += 1
        seed = f"{position.review_seed}:line:{len(line)}"
        action = evaluate(state, budget, seed, searcher=searcher).best_action
        state.apply_action(action)
        line.append(action)
    return _turn_moves(position, line)


def _turn_moves(position: Position, actions: list[int]) -> tuple[tuple[str, str], ...]:
    """The turns `actions` make from the position, each as (seat letter, move in the record
    notation); a draw whose tile is not seen yet reads `draw`."""
    game = position.game
    whole = [*position.before, *actions]
    made = [item for item in walk(game, whole) if isinstance(item, Turn)]
    moves = [
        (pieces.SEAT_LETTERS[turn.seat], describe(turn.move, game))
        for turn in made[position.puzzle.ply - 1 :]
    ]
    state = game.new_initial_state()
    for action in whole:
        state.apply_action(action)
    if state.phase == DRAWN:
        moves.append((pieces.SEAT_LETTERS[state.seat], describe(Move(DRAW), game)))
    return tuple(moves)
