"""Tournaments between agents: who sits where, playing the games, and the standings.

Every pairing of agents (for 3–4 players, every mixed table) plays the same number of games,
seats rotating from game to game. Standings give each agent's mean win_share with a Wilson
95% interval and an Elo rating fitted to the head-to-head results of all games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING

from engine.agents import make_agent, play_game
from engine.executors import Executor, LocalExecutor
from engine.outcome import Outcome
from engine.rules import RuleSet
from engine.state import Game
from engine.stats import wilson_interval

if TYPE_CHECKING:
    from engine.ratings import Placings, Rating


@dataclass(frozen=True)
class TableGame:
    """One game to play: its table (agents in listed order), the agent in each seat, the seed."""

    index: int
    lineup: tuple[str, ...]
    agents: tuple[str, ...]
    seed: str


@dataclass(frozen=True)
class GameResult:
    """A finished game: who sat where, their final gold and the game's action list."""

    table: TableGame
    gold: tuple[int, ...]
    actions: tuple[int, ...]

    @property
    def win_shares(self) -> tuple[float, ...]:
        return Outcome.of(self.gold).win_shares


@dataclass(frozen=True)
class Standing:
    games: int
    win_share: float
    ci95: tuple[float, float]
    rating: Rating | None  # None for an agent that met only itself


@dataclass(frozen=True)
class PairingScore:
    """Head-to-head in 2-player games: the first agent's win_share against the second."""

    agents: tuple[str, str]
    games: int
    win_share: float
    ci95: tuple[float, float]


def tables(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every pairing (or mixed table) of distinct agents; repeats only when agents are few."""
    if len(set(agents)) != len(agents):
        raise ValueError("each agent may be listed once")
    if len(agents) < 2:
        raise ValueError("a tournament needs at least two agents")
    if len(agents) >= players:
        return list(combinations(agents, players))
    return [t for t in combinations_with_replacement(agents, players) if len(set(t)) > 1]


def schedule(agents: Sequence[str], players: int, games: int, seed: int) -> list[TableGame]:
    """`games` games per table; game i of a table seats its agents rotated by i."""
    schedule_list: list[TableGame] = []
    for table_index, table in enumerate(tables(agents, players)):
        for game in range(games):
            shift = game % players
            seated = table[shift:] + table[:shift]
            index = len(schedule_list)
            schedule_list.append(TableGame(index, table, seated, f"{seed}:{table_index}:{game}"))
    return schedule_list


def play_table_game(table: TableGame, rules: RuleSet) -> GameResult:
    """Play one scheduled game; each agent is seeded from the game's seed and its seat."""
    game = Game(len(table.agents), rules)
    agents = [make_agent(name, f"{table.seed}:{seat}") for seat, name in enumerate(table.agents)]
    state = play_game(game, agents, table.seed)
    return GameResult(table, tuple(state.returns()), tuple(state.history))


def _play_one(job: tuple[TableGame, RuleSet]) -> GameResult:
    return play_table_game(*job)


def run_tournament(
    scheduled: Sequence[TableGame],
    rules: RuleSet,
    workers: int = 2,
    on_result: Callable[[GameResult], None] | None = None,
    executor: Executor | None = None,
) -> list[GameResult]:
    """Play every scheduled game (on `executor`, else in `workers` local processes), results
    in schedule order."""
    jobs = [(table, rules) for table in scheduled]
    results: list[GameResult] = []
    seated = {name for table in scheduled for name in table.agents}
    local = LocalExecutor(workers, agents=seated)
    for result in (executor or local).map_unordered(_play_one, jobs):
        results.append(result)
        if on_result:
            on_result(result)
    return sorted(results, key=lambda r: r.table.index)


def head_to_head(results: Iterable[GameResult]) -> dict[tuple[str, str], list[float]]:
    """For every ordered pair of different agents met at a table: scores of the first (1, ½, 0)."""
    scores: dict[tuple[str, str], list[float]] = {}
    for result in results:
        names, gold = result.table.agents, result.gold
        for i, j in combinations(range(len(names)), 2):
            if names[i] == names[j]:
                continue
            score = 1.0 if gold[i] > gold[j] else 0.5 if gold[i] == gold[j] else 0.0
            scores.setdefault((names[i], names[j]), []).append(score)
            scores.setdefault((names[j], names[i]), []).append(1.0 - score)
    return scores


def ratings(results: Sequence[GameResult]) -> dict[str, Rating]:
    """Each agent's Bradley–Terry rating from the games' outcomes (engine/ratings.py)."""
    from engine.ratings import fit_ratings  # numpy: not on the path of `kingdoms --help`

    counts: dict[Placings, int] = {}
    for result in results:
        ranks = Outcome.of(result.gold).ranks
        seats = sorted(zip(ranks, result.table.agents, strict=True))
        outcome = tuple(((False, agent), rank) for rank, agent in seats)
        counts[outcome] = counts.get(outcome, 0) + 1
    return {rating.player[1]: rating for rating in fit_ratings(counts)}


def standings(results: Sequence[GameResult]) -> dict[str, Standing]:
    """Per agent: seat-games played, mean win_share with its Wilson interval, and its rating."""
    share_sums: dict[str, float] = {}
    games: dict[str, int] = {}
    for result in results:
        for name, share in zip(result.table.agents, result.win_shares, strict=True):
            share_sums[name] = share_sums.get(name, 0.0) + share
            games[name] = games.get(name, 0) + 1
    rated = ratings(results)
    return {
        name: Standing(
            games=games[name],
            win_share=share_sums[name] / games[name],
            ci95=wilson_interval(share_sums[name], games[name]),
            rating=rated.get(name),
        )
        for name in games
    }


def pairing_scores(results: Sequence[GameResult]) -> list[PairingScore]:
    """Head-to-head win_share of the first-listed agent of each 2-player pairing."""
    sums: dict[tuple[str, str], float] = {}
    counts: dict[tuple[str, str], int] = {}
    for result in results:
        lineup = result.table.lineup
        if len(lineup) != 2:
            continue
        key = (lineup[0], lineup[1])
        share = result.win_shares[result.table.agents.index(lineup[0])]
        sums[key] = sums.get(key, 0.0) + share
        counts[key] = counts.get(key, 0) + 1
    return [
        PairingScore(
            key, counts[key], sums[key] / counts[key], wilson_interval(sums[key], counts[key])
        )
        for key in sums
    ]
