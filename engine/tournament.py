"""Tournaments between agents: who sits where, playing the games, and the standings.

Every pairing of agents (for 3–4 players, every mixed table) plays the same number of games,
seats rotating from game to game. Standings give each agent's mean win_share with a Wilson
95% interval and an Elo rating fitted to the head-to-head results of all games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from multiprocessing import Pool

from engine.agents import make_agent, play_game
from engine.outcome import Outcome
from engine.rules import RuleSet
from engine.state import Game
from engine.stats import wilson_interval

ELO_BASE = 1500.0
ELO_SCALE = 400.0 / math.log(10)


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
    elo: float


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
) -> list[GameResult]:
    """Play every scheduled game (in `workers` processes), results in schedule order."""
    jobs = [(table, rules) for table in scheduled]
    results: list[GameResult] = []
    if workers <= 1:
        for job in jobs:
            results.append(_play_one(job))
            if on_result:
                on_result(results[-1])
    else:
        from engine.kernel.batch import warm_up

        warm_up()  # compile (or load) the kernel once here, not once in every forked worker
        with Pool(workers) as pool:
            for result in pool.imap_unordered(_play_one, jobs):
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


def elo_ratings(results: Sequence[GameResult], iterations: int = 200) -> dict[str, float]:
    """Bradley–Terry strengths fitted by minorisation–maximisation, on the Elo scale.

    Every pair of agents also gets one virtual drawn game, so that a perfect record still
    gives a finite rating; ratings average 1500.
    """
    pairs = head_to_head(results)
    names = sorted({a for pair in pairs for a in pair})
    if not names:
        return {}
    wins = {n: 0.0 for n in names}
    meetings: dict[tuple[str, str], float] = {}
    for (a, b), scores in pairs.items():
        wins[a] += sum(scores) + 0.5
        meetings[(a, b)] = len(scores) + 1.0
    strength = {n: 1.0 for n in names}
    for _ in range(iterations):
        updated = {}
        for a in names:
            denominator = sum(
                count / (strength[a] + strength[b])
                for (first, b), count in meetings.items()
                if first == a
            )
            updated[a] = wins[a] / denominator if denominator else strength[a]
        mean_log = sum(math.log(s) for s in updated.values()) / len(names)
        strength = {n: math.exp(math.log(s) - mean_log) for n, s in updated.items()}
    return {n: ELO_BASE + ELO_SCALE * math.log(strength[n]) for n in names}


def standings(results: Sequence[GameResult]) -> dict[str, Standing]:
    """Per agent: seat-games played, mean win_share with its Wilson interval, and Elo."""
    share_sums: dict[str, float] = {}
    games: dict[str, int] = {}
    for result in results:
        for name, share in zip(result.table.agents, result.win_shares, strict=True):
            share_sums[name] = share_sums.get(name, 0.0) + share
            games[name] = games.get(name, 0) + 1
    elo = elo_ratings(results)
    return {
        name: Standing(
            games=games[name],
            win_share=share_sums[name] / games[name],
            ci95=wilson_interval(share_sums[name], games[name]),
            elo=elo.get(name, ELO_BASE),
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
