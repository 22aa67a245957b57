"""The strong search's choice at every decision of the apprentice's own games, Expert
Iteration's labels: each game replayed, each seat with a choice searched from its observation.

Labels are cached in the lake per game, search budget and seed as
`apprentice-labels/game_id=<id>/iterations=<n>-seed=<s>.parquet` (one row per action: the
search's choice, -1 where nobody chose), written atomically, so a rerun labels only what is
missing. Each file is stamped with the evaluator's version, which is raised whenever the search
would choose otherwise; one made by another version is searched again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

from data.lake import Lake, replace_file_atomically
from engine.agents.strong import Searcher
from engine.evaluate import VERSION
from engine.executors import Executor, LocalExecutor
from engine.rules import RuleSet, rule_set
from engine.state import Game

FOLDER = "apprentice-labels"
SEARCH = b"evaluator"  # the Parquet metadata key of the search's version (engine.evaluate's)
NO_CHOICE = -1
SEED_STRIDE = 100_003  # decision k of a game labelled at seed s searches on seed s × stride + k


@dataclass(frozen=True)
class LabelJob:
    """One game to label, with all a worker needs to replay it."""

    game_id: int
    players: int
    rules: RuleSet
    actions: tuple[int, ...]
    iterations: int
    seed: int


def _path(lake: Lake, game_id: int, iterations: int, seed: int) -> Path:
    name = f"iterations={iterations}-seed={seed}.parquet"
    return lake.root / FOLDER / f"game_id={int(game_id)}" / name


def game_labels(job: LabelJob) -> tuple[int, np.ndarray]:
    """A worker's job: the game's id and, per action, the search's choice where the seat to
    move had more than one legal action (else NO_CHOICE)."""
    state = Game(job.players, job.rules).new_initial_state()
    searcher = Searcher(job.iterations)
    labels = np.full(len(job.actions), NO_CHOICE, dtype=np.int16)
    for index, action in enumerate(job.actions):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            seat = state.current_player()
            found = searcher.search(state.observation(seat), job.seed * SEED_STRIDE + index)
            labels[index] = found.best_action
        state.apply_action(action)
    return job.game_id, labels


def load_labels(lake: Lake, game_id: int, iterations: int, seed: int) -> np.ndarray | None:
    """A game's stored labels at this budget and seed, or None if there are none by today's
    search."""
    path = _path(lake, game_id, iterations, seed)
    if not path.exists() or (pq.read_schema(path).metadata or {}).get(SEARCH) != _stamp():
        return None
    return pq.read_table(path).column("label").to_numpy().astype(np.int64)


def _stamp() -> bytes:
    return str(VERSION).encode()


def label_games(
    lake: Lake,
    games: pl.DataFrame,
    iterations: int,
    seed: int,
    workers: int = 1,
    executor: Executor | None = None,
    progress: bool = True,
) -> dict[int, np.ndarray]:
    """Every game's labels (columns game_id, players, edition, variant, actions a byte each):
    those missing searched on `executor` (else `workers` local processes) and stored as each
    arrives, so an interrupted run keeps what it did."""
    labels: dict[int, np.ndarray] = {}
    jobs = []
    for game_id, players, edition, variant, actions in games.select(
        "game_id", "players", "edition", "variant", "actions"
    ).iter_rows():
        stored = load_labels(lake, game_id, iterations, seed)
        if stored is not None:
            labels[game_id] = stored
            continue
        rules = rule_set(edition, variant or None)
        moves = tuple(np.frombuffer(actions, dtype=np.uint8).tolist())
        jobs.append(LabelJob(game_id, players, rules, moves, iterations, seed))
    if executor is None:
        executor = LocalExecutor(min(workers, max(len(jobs), 1)), agents=("strong",))
    bar = tqdm(total=len(jobs), desc="labelling by the search", unit="game", disable=not progress)
    with bar:
        for game_id, found in executor.map_unordered(game_labels, jobs):
            table = pa.table(
                {"label": pa.array(found, type=pa.int16())}, metadata={SEARCH: _stamp()}
            )
            replace_file_atomically(table, _path(lake, game_id, iterations, seed))
            labels[game_id] = found.astype(np.int64)
            bar.update()
    return labels
