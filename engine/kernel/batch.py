"""The kernel's batch entry points: games for many seeds with a policy per seat, the breakdown
of many boards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine import pieces
from engine.kernel import games, play, scoring
from engine.kernel.apprentice import no_model, shipped_model
from engine.kernel.layout import CELLS, MAX_EPOCHS, PLAYERS
from engine.kernel.policies import POLICIES
from engine.kernel.tables import kernel_rules
from engine.rules import RuleSet

SEATS = pieces.MAX_SEATS


@dataclass(frozen=True)
class KernelGames:
    """Games played from seeds: game g's actions are actions[offsets[g]:offsets[g+1]]."""

    actions: np.ndarray  # action ids and chance outcomes: uint8 below 256 of them, else uint16
    offsets: np.ndarray  # (G + 1,)
    gains: np.ndarray  # (G, MAX_EPOCHS, SEATS) gold gained per epoch, zeros after the last
    epochs: np.ndarray  # (G,) epochs played

    def history(self, game: int) -> np.ndarray:
        return self.actions[self.offsets[game] : self.offsets[game + 1]]

    def epoch_gains(self, game: int, players: int) -> list[list[int]]:
        """The gains as engine.State keeps them: per epoch played, per seat."""
        return self.gains[game, : self.epochs[game], :players].tolist()


def action_type(action_count: int) -> type[np.unsignedinteger]:
    """The array type a game's actions take: a byte each while every id fits one (the shipped
    boards), else two."""
    return np.uint8 if action_count <= 256 else np.uint16


def _longest_game(rules: np.ndarray) -> int:
    """More actions than any game can take: per epoch the deals, the first player, then per
    cell a draw (draw, tile, place) and a pass of every other seat."""
    players, cells = rules[PLAYERS], rules[CELLS]
    return int(rules[MAX_EPOCHS] * (players + 1 + cells * (3 + players)))


def policy_games(
    players: int,
    rules: RuleSet,
    seeds: Sequence[int] | np.ndarray,
    seats: Sequence[str],
    model: np.ndarray | None = None,
) -> KernelGames:
    """One game per seed, seat i playing the policy `seats[i]` (random, greedy, heuristic,
    apprentice: by `model`, else the shipped weights); chance and every random choice come
    from the kernel's stream seeded with the game's seed."""
    if len(seats) != players:
        raise ValueError(f"{players} players need {players} policies, not {len(seats)}")
    unknown = [name for name in seats if name not in POLICIES]
    if unknown:
        raise ValueError(f"no compiled policy '{unknown[0]}' (choose from {', '.join(POLICIES)})")
    tables = kernel_rules(players, rules)
    seeds = np.asarray(seeds, dtype=object)
    if len(seeds) and (min(seeds) < 0 or max(seeds) >= 2**64):
        raise ValueError("seeds must be between 0 and 2**64 - 1")
    count, longest = len(seeds), _longest_game(tables)
    actions = np.zeros(count * longest, dtype=action_type(play.action_count(tables)))
    offsets = np.zeros(count + 1, dtype=np.int64)
    gains = np.zeros((count, int(tables[MAX_EPOCHS]) * SEATS), dtype=np.int64)
    epochs = np.zeros(count, dtype=np.int64)
    policies = np.array([POLICIES[name] for name in seats], dtype=np.int64)
    if model is None:
        model = shipped_model() if "apprentice" in seats else no_model()
    games.play_games(
        play.new_state(tables),
        tables,
        policies,
        model,
        seeds.astype(np.uint64),
        longest,
        actions,
        offsets,
        gains,
        epochs,
    )
    return KernelGames(actions[: offsets[-1]], offsets, gains.reshape(count, -1, SEATS), epochs)


def random_games(players: int, rules: RuleSet, seeds: Sequence[int] | np.ndarray) -> KernelGames:
    """One game per seed, every seat playing the random policy."""
    return policy_games(players, rules, seeds, ("random",) * players)


@dataclass(frozen=True)
class BoardScores:
    """Per epoch board (E of them): gold per seat, and per cell the segment bases and ranks."""

    gold: np.ndarray  # (E, SEATS)
    row_base: np.ndarray  # (E, cells) base of the row segment holding the cell
    column_base: np.ndarray  # (E, cells)
    effective_rank: np.ndarray  # (E, cells) castle rank plus wizard bonus, 0 for non-castles
    impacts: np.ndarray  # (E, cells, SEATS) counterfactual impact of the tile on the cell


_STANDARD = RuleSet()


def score_boards(boards: np.ndarray, rules: RuleSet = _STANDARD) -> BoardScores:
    """The breakdown of E boards (an (E, cells) array of piece codes) under the rules' board."""
    tables = kernel_rules(2, rules)  # scoring reads the board and the pieces, not the players
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    count, cells = boards.shape
    gold = np.zeros((count, SEATS), dtype=np.int64)
    row_base, column_base, rank = np.zeros((3, count, cells), dtype=np.int64)
    impacts = np.zeros((count, cells, SEATS), dtype=np.int64)
    scoring.score_boards(boards, tables, gold, row_base, column_base, rank, impacts)
    return BoardScores(gold, row_base, column_base, rank, impacts)


def warm_up() -> None:
    """Compile (or load from the cache) every entry point, with the types callers use."""

    rules = RuleSet()
    tables = kernel_rules(3, rules)
    games = policy_games(3, rules, [0], ("random", "greedy", "heuristic"))
    state = play.new_state(tables)
    play.legal_action_list(state, tables)
    play.chance_outcome_list(state, tables)
    play.apply_action(state, tables, int(games.history(0)[0]))
    score_boards(np.zeros((1, rules.cells), dtype=np.int64), rules)
