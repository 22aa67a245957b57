"""Training the apprentice: the teacher's self-play games played into a lake (resumable, as
`kingdoms simulate` plays them), every decision of theirs described by the kernel, a model of
each size fitted to them for each player count (the point of the fit kept that plays best
against the heuristic at that count), each measured against the heuristic and the greedy
agent, and the best per millisecond written with the record of how it was made."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl

from data.apprentice_labels import label_games
from data.corpus import Corpus, simulated_games
from data.lake import Lake
from data.simulate import Plan, simulate
from engine.agents.strong import STRONG_ITERATIONS
from engine.executors import Executor
from engine.kernel import play
from engine.kernel.apprentice import (
    FEATURES,
    PLAYER_COUNTS,
    game_decisions,
    row_length,
    save_weights,
)
from engine.kernel.batch import policy_games
from engine.kernel.layout import ACTION_COUNT
from engine.kernel.tables import kernel_rules
from engine.learning import Decisions, agreement, fit_path, log_loss
from engine.outcome import seat_outcomes
from engine.rules import RuleSet, rule_set
from engine.stats import wilson_interval

TEACHER = "strong"
LEARNER = "apprentice"
HIDDEN_SIZES = (0, 16)  # the model sizes compared: linear, and a 16-unit tanh layer
PASSES = 2  # training passes over the decisions
HELD_OUT = 0.1  # the share of each player count's decisions kept to measure agreement
MEASURE_GAMES = 400  # games a pairing when measuring a model's strength (2 players)
CHECKPOINTS = 8  # rows a fit is checked at, besides its start (the heuristic's choice)
CHECK_GAMES_PER_MEASURED = 3  # games a checkpoint plays against the heuristic, per measured
CHECK_SEED = 1_000_000  # the checkpoints' games' seeds lie this far from the measure's
SPEED_GAMES = 300  # 3-player games played to time a model


@dataclass(frozen=True)
class Measured:
    """One model size's figures: agreement with the teacher on held-out decisions, its mean
    log-loss there, how far along its fit each player count's row was kept, win shares at 2
    players with 95% Wilson intervals, and its speed."""

    hidden: int
    agreement: dict[int, float]
    log_loss: dict[int, float]
    kept_at: dict[int, float]  # the share of the fit's steps taken by the checkpoint kept
    vs_heuristic: tuple[float, float, float]
    vs_greedy: tuple[float, float, float]
    games_per_s: float
    fit_s: float


def teacher_games(lake: Lake, corpus: Corpus | None, teacher: str) -> pl.DataFrame:
    """Every simulated game of the lake (and of the corpus) with the teacher at every seat:
    players, edition, variant, actions."""
    columns = ["players", "edition", "variant", "line_up", "actions"]
    frames = []
    lake_games, _ = simulated_games(lake)
    if len(lake_games):
        frames.append(lake_games.select(columns))
    if corpus is not None:
        games = pl.from_arrow(corpus.games.select(columns))
        assert isinstance(games, pl.DataFrame)
        frames.append(games)
    if not frames:
        return pl.DataFrame(schema=dict.fromkeys(columns, pl.String))
    joined = pl.concat(frames, how="vertical_relaxed")
    return joined.filter(at_every_seat(teacher))


def own_games(lake: Lake, games: int, seed: int) -> pl.DataFrame:
    """The first `games` games of the apprentice's self-play plan at `seed` in the lake."""
    found, _ = simulated_games(lake)
    if not len(found):
        return found
    return found.filter(
        at_every_seat(LEARNER), pl.col("plan_seed") == seed, pl.col("index") < games
    )


def at_every_seat(agent: str) -> pl.Expr:
    """Games whose line-up is the agent alone."""
    return pl.col("line_up").str.split(",").list.eval(pl.element() == agent).list.all()


def game_decisions_of(
    games: pl.DataFrame, labels: dict[int, np.ndarray] | None = None
) -> dict[int, Decisions]:
    """Every decision with a choice in the games, per player count, described by the kernel,
    labelled by the move played there, or by `labels` (per game id, data/apprentice_labels.py)."""
    parts: dict[int, list[Decisions]] = {players: [] for players in PLAYER_COUNTS}
    tables: dict[tuple[int, str, str], np.ndarray] = {}
    if labels is None:
        games = games.with_columns(game_id=pl.lit(None))
    for game_id, players, edition, variant, actions in games.select(
        "game_id", "players", "edition", "variant", "actions"
    ).iter_rows():
        key = (players, edition, variant or "")
        rules = tables.get(key)
        if rules is None:
            rules = tables[key] = kernel_rules(players, rule_set(edition, variant or None))
        listed = np.frombuffer(actions, dtype=np.uint8).astype(np.int64)
        features = np.zeros((len(listed) * int(rules[ACTION_COUNT]), FEATURES))
        candidates = np.zeros(len(listed) + 1, dtype=np.int64)
        chosen = np.zeros(len(listed), dtype=np.int64)
        learner = np.ones(players, dtype=np.int64)
        taught = listed if labels is None else labels[game_id]
        count = game_decisions(
            play.new_state(rules), rules, listed, taught, learner, features, candidates, chosen
        )
        parts[players].append(
            Decisions(
                features[: candidates[count]].astype(np.float32),
                candidates[: count + 1].copy(),
                chosen[:count].copy(),
            )
        )
    return {players: Decisions.joined(found) for players, found in parts.items()}


def games_per_players(games: pl.DataFrame) -> dict[int, int]:
    """How many of the games are at each player count."""
    if not len(games):
        return {}
    return {int(p): int(n) for p, n in games.group_by("players").len().iter_rows()}


def win_share(
    model: np.ndarray, opponent: str, games: int, seed: int, players: int = 2
) -> tuple[float, float, float]:
    """The apprentice's mean win share against the opponent in every other seat (2 players
    unless told), seats rotating, with its 95% Wilson interval."""
    shares = []
    for seat in range(players):
        seats = [opponent] * players
        seats[seat] = LEARNER
        seeds = np.arange(games // players, dtype=np.uint64) + np.uint64(seed * 1_000_003 + seat)
        played = policy_games(players, RuleSet(), seeds, seats, model)
        outcomes = seat_outcomes(played.gains.sum(axis=1)[:, :players])
        shares.append(outcomes.win_share[:, seat])
    share = np.concatenate(shares)
    low, high = wilson_interval(float(share.sum()), len(share))
    return float(share.mean()), low, high


def strongest_on_path(
    model: np.ndarray, players: int, path: list[np.ndarray], games: int, seed: int
) -> tuple[int, np.ndarray]:
    """Of a fit's checkpoints for this player count (`fit_path`'s, the first the heuristic's
    choice), the one whose games against the heuristic at that count win most: its index."""
    shares = []
    for row in path:
        trial = model.copy()
        trial[players - 2] = row
        shares.append(win_share(trial, "heuristic", games, seed, players)[0])
    best = int(np.argmax(shares))
    return best, path[best]


def games_per_s(model: np.ndarray, games: int, seed: int) -> float:
    """3-player games of the apprentice at every seat a second, on this core."""
    seeds = np.arange(games, dtype=np.uint64) + np.uint64(seed)
    policy_games(3, RuleSet(), seeds[:2], ["apprentice"] * 3, model)  # compiled first
    started = time.perf_counter()
    policy_games(3, RuleSet(), seeds, ["apprentice"] * 3, model)
    return games / (time.perf_counter() - started)


def measure(
    decisions: dict[int, Decisions], hidden: int, passes: int, seed: int, measure_games: int
) -> tuple[np.ndarray, Measured]:
    """Fit one model size per player count on all but the held-out decisions, keep for each
    count the checkpoint of the fit that plays best against the heuristic there (on
    CHECK_GAMES_PER_MEASURED times `measure_games` games, seeds apart from the measure's),
    and measure the model."""
    started = time.perf_counter()
    model = np.zeros((len(PLAYER_COUNTS), row_length(hidden)))
    agreements, losses, kept_at = {}, {}, {}
    for index, players in enumerate(PLAYER_COUNTS):
        found = decisions[players]
        cut = int(len(found) * (1 - HELD_OUT))
        held_out = found.part(cut, len(found))
        path = fit_path(found.part(0, cut), hidden, passes, seed, CHECKPOINTS)
        checked = CHECK_GAMES_PER_MEASURED * measure_games
        at, model[index] = strongest_on_path(model, players, path, checked, seed + CHECK_SEED)
        kept_at[players] = round(at / CHECKPOINTS, 3)
        if len(held_out):
            agreements[players] = round(agreement(model[index], hidden, held_out), 4)
            losses[players] = round(log_loss(model[index], hidden, held_out), 4)
    fit_s = time.perf_counter() - started
    figures = Measured(
        hidden,
        agreements,
        losses,
        kept_at,
        win_share(model, "heuristic", measure_games, seed),
        win_share(model, "greedy", measure_games, seed),
        games_per_s(model, SPEED_GAMES, seed),
        fit_s,
    )
    return model, figures


def cheapest_as_strong(
    results: list[tuple[np.ndarray, Measured]],
) -> tuple[np.ndarray, Measured]:
    """The best strength per millisecond: the fastest model whose win share against the
    heuristic is not measurably below the strongest's (their 95% intervals overlap)."""
    strongest = max(figures.vs_heuristic[0] for _, figures in results)
    floor = max(
        figures.vs_heuristic[1] for _, figures in results if figures.vs_heuristic[0] == strongest
    )
    alike = [pair for pair in results if pair[1].vs_heuristic[2] >= floor]
    return max(alike, key=lambda pair: pair[1].games_per_s)


def commit_id() -> str:
    """The checkout's commit (with "+changes" when it has uncommitted ones), or "unknown"."""
    try:
        run = subprocess.run(
            ["git", "describe", "--always", "--dirty=+changes", "--abbrev=12"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return run.stdout.strip() or "unknown"


@dataclass(frozen=True)
class Training:
    """What a training run did: the games and decisions it learned from, each size's
    figures, the size kept, and the time each step took."""

    games: dict[int, int]
    decisions: dict[int, int]
    measured: list[Measured]
    kept: int
    generate_s: float
    describe_s: float
    total_s: float


def train(
    lake: Lake,
    out: Path,
    *,
    games: int,
    seed: int,
    corpus: Corpus | None = None,
    workers: int = 1,
    executor: Executor | None = None,
    hidden_sizes: Sequence[int] = HIDDEN_SIZES,
    passes: int = PASSES,
    measure_games: int = MEASURE_GAMES,
    teacher: str = TEACHER,
    learner_games: int = 0,
    label_iterations: int = STRONG_ITERATIONS,
    say: Callable[[str], None] = print,
    progress: bool = True,
) -> Training:
    """The whole loop: play the teacher's games missing from the lake (and `learner_games`
    of the shipped apprentice's, each of their decisions labelled by the strong search at
    `label_iterations`: Expert Iteration's next round), describe their decisions, fit and
    measure every size, write the one of best strength per millisecond."""
    started = time.perf_counter()
    for agent, count in ((teacher, games), (LEARNER, learner_games)):
        if count:
            plan = Plan(count, agents=(agent,), seed=seed, batch_size=max(1, min(50, count)))
            simulate(lake, plan, workers, progress, executor)
    own = own_games(lake, learner_games, seed) if learner_games else pl.DataFrame()
    labels = (
        label_games(lake, own, label_iterations, seed, workers, executor, progress)
        if len(own)
        else {}
    )
    generated = time.perf_counter()
    played = teacher_games(lake, corpus, teacher)
    if not len(played) and not len(own):
        raise ValueError(f"no game with '{teacher}' at every seat to learn from")
    decisions = game_decisions_of(played)
    if len(own):
        labelled = game_decisions_of(own, labels)
        decisions = {p: Decisions.joined([decisions[p], labelled[p]]) for p in PLAYER_COUNTS}
    described = time.perf_counter()
    counts, own_counts = games_per_players(played), games_per_players(own)
    say(
        f"learning from {len(played):,} games of {teacher} "
        f"({', '.join(f'{counts.get(p, 0):,} at {p} players' for p in PLAYER_COUNTS)})"
        + (f" and {len(own):,} of the apprentice's labelled by the search" if len(own) else "")
        + f": {sum(len(d) for d in decisions.values()):,} decisions"
    )
    results = []
    for hidden in hidden_sizes:
        model, figures = measure(decisions, hidden, passes, seed, measure_games)
        share, low, high = figures.vs_heuristic
        say(
            f"hidden {hidden}: vs heuristic {share:.3f} [{low:.3f}, {high:.3f}], "
            f"vs greedy {figures.vs_greedy[0]:.3f}, {figures.games_per_s:,.0f} games/s "
            f"at 3 players, agreement {figures.agreement}, kept at {figures.kept_at} of "
            f"the fit, fitted and checked in {figures.fit_s:.0f} s"
        )
        results.append((model, figures))
    model, kept = cheapest_as_strong(results)
    total = time.perf_counter() - started
    made = {
        "teacher": teacher,
        "games": counts,
        "decisions": {str(p): len(d) for p, d in decisions.items()},
        "seed": seed,
        "simulate_games": games,
        "learner_games": own_counts,
        "label_iterations": label_iterations if len(own) else None,
        "corpus": None if corpus is None else str(corpus.path.name),
        "passes": passes,
        "commit": commit_id(),
        "made_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "training_s": round(total, 1),
        "measured": [asdict(figures) for _, figures in results],
        "kept": kept.hidden,
    }
    save_weights(out, model, kept.hidden, made)
    return Training(
        counts,
        {p: len(d) for p, d in decisions.items()},
        [figures for _, figures in results],
        kept.hidden,
        generated - started,
        described - generated,
        total,
    )
