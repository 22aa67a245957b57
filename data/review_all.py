"""Review every recorded game of the lake that the review cache lacks, or a sample of each
agent's simulated games: one game per job on an executor (local processes or Dask), each review
stored by this process as it arrives.

The jobs carry the games themselves, so workers need not see the lake; only this process reads
the lake and writes the cache (data/reviews.py, atomic per game), so a rerun reviews only what
is still missing.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl
from tqdm import tqdm

from data.lake import Lake
from data.levels import LEVELS
from data.reader import connect, execute
from data.review_rows import review_game
from data.reviews import has_review, save_review
from data.rule_sets import stored_rules
from engine.executors import Executor, LocalExecutor
from engine.rules import RuleSet
from engine.state import Game


@dataclass(frozen=True)
class ReviewJob:
    """One stored game to review, with all a worker needs to replay it."""

    game_id: int
    players: int
    rules: RuleSet
    actions: tuple[int, ...]
    budget: int
    seed: int


@dataclass(frozen=True)
class Reviewed:
    """What a batch review did: games reviewed now, and games whose review was already kept."""

    reviewed: int
    already: int


def pending_reviews(
    lake: Lake, budget: int, seed: int, player: str | None = None, only_player: bool = False
) -> tuple[list[ReviewJob], int]:
    """The lake's recorded games without a review at this budget and seed, as jobs (the games
    of `player` first, or `only_player` theirs alone), and how many of those recorded games
    have one already."""
    con = connect(lake)
    ids = execute(con, "review_order", {"player": player})["game_id"].to_list()
    if only_player:
        own = set(execute(con, "player_games", {"player": player})["game_id"].to_list())
        ids = [game_id for game_id in ids if game_id in own]
    missing = [game_id for game_id in ids if not has_review(lake, game_id, budget, seed)]
    jobs = [_job(execute(con, "game_record", {"game_id": g}), budget, seed) for g in missing]
    return jobs, len(ids) - len(missing)


def pending_agent_reviews(
    lake: Lake, budget: int, seed: int, sample: int, agents: tuple[str, ...] = LEVELS
) -> tuple[list[ReviewJob], int]:
    """Each agent's sample, its first `sample` simulated games by id, less those with a review
    at this budget and seed, as jobs (a game two agents share once), and how many of the
    samples' games have one already."""
    con = connect(lake)
    missing: dict[int, None] = {}
    reviewed: set[int] = set()
    for agent in agents:
        ids = execute(con, "agent_sample", {"agent": agent})["game_id"].to_list()[:sample]
        for game_id in ids:
            if has_review(lake, game_id, budget, seed):
                reviewed.add(game_id)
            else:
                missing[game_id] = None
    jobs = [_job(execute(con, "game_record", {"game_id": g}), budget, seed) for g in missing]
    return jobs, len(reviewed)


def _job(found: pl.DataFrame, budget: int, seed: int) -> ReviewJob:
    row = found.row(0, named=True)
    return ReviewJob(
        game_id=row["game_id"],
        players=row["players"],
        rules=stored_rules(row),
        actions=tuple(row["actions"]),
        budget=budget,
        seed=seed,
    )


def review_job(job: ReviewJob) -> tuple[int, pl.DataFrame]:
    """A worker's job: the game's id and its review rows."""
    game = Game(job.players, job.rules)
    return job.game_id, review_game(game, job.actions, job.budget, job.seed)


def review_all(
    lake: Lake,
    budget: int,
    seed: int,
    workers: int = 1,
    executor: Executor | None = None,
    progress: bool = True,
    player: str | None = None,
    only_player: bool = False,
) -> Reviewed:
    """Review the recorded games the cache lacks (on `executor`, else in `workers` local
    processes; the games of `player` first, or `only_player` theirs alone), storing each review
    as it arrives: an interrupted run keeps those stored."""
    jobs, already = pending_reviews(lake, budget, seed, player, only_player)
    done = _review(lake, jobs, budget, seed, workers, executor, progress, "recorded games")
    return Reviewed(done, already)


def review_agents(
    lake: Lake,
    budget: int,
    seed: int,
    sample: int,
    workers: int = 1,
    executor: Executor | None = None,
    progress: bool = True,
) -> Reviewed:
    """Review the first `sample` simulated games of each agent of the ladder (LEVELS) that the
    cache lacks, as `review_all` the recorded games: their accuracy is what a player's is
    placed against (data/strength.py)."""
    jobs, already = pending_agent_reviews(lake, budget, seed, sample)
    done = _review(lake, jobs, budget, seed, workers, executor, progress, "agents' games")
    return Reviewed(done, already)


def _review(
    lake: Lake,
    jobs: list[ReviewJob],
    budget: int,
    seed: int,
    workers: int,
    executor: Executor | None,
    progress: bool,
    what: str,
) -> int:
    """Review the jobs, storing each review as it arrives, the progress bar naming `what`;
    how many were reviewed."""
    if executor is None:
        executor = LocalExecutor(min(workers, max(len(jobs), 1)), agents=("strong",))
    reviewed = 0
    with tqdm(total=len(jobs), desc=f"reviewing {what}", unit="game", disable=not progress) as bar:
        for game_id, review in executor.map_unordered(review_job, jobs):
            save_review(lake, game_id, budget, seed, review)
            reviewed += 1
            bar.update()
    return reviewed
