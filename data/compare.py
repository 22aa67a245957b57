"""Two rule sets compared: each one's games played into the lake (a fixed seed per rule set, only
the games missing), the Balance page's figures of each read from the lake's named queries, and
each figure's difference B − A with its 95% interval and a verdict."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import duckdb
import numpy as np
import polars as pl

from data.balance import balance_by_players
from data.design import played_design_measures, skill_depth
from data.lake import Lake
from data.levels import LEVELS
from data.played import Setups
from data.reader import connect, execute
from data.schema import ENGINE_VERSION
from data.simulate import MAX_SEED, SOURCE, Plan, PlanError, check_agents, plan_games, simulate
from engine.agents import AGENTS_VERSION
from engine.rules import (
    EDITIONS,
    PLAYER_COUNTS,
    RuleSet,
    is_shipped,
    rule_set,
    rule_text,
    rules_hash,
)
from engine.stats import wilson_interval

DEFAULT_GAMES = 2000
DEFAULT_AGENTS = ("heuristic",)  # the fastest agent at least as strong as the heuristic
# Skill depth's ladder in a comparison: the three cheapest rungs (about 0.1 s a game at 32
# iterations), games per rung at each player count; pooled, 60 games give about ±0.12.
SKILL_BUDGETS = (8, 16, 32)
SKILL_GAMES = 20
SKILL_DEFINITION = (
    "the win share of the search against itself at half its budget, the rungs "
    + ", ".join(f"{budget} v {budget // 2}" for budget in SKILL_BUDGETS)
    + " iterations a move pooled, seats taken in turn (against the fair share 1/N: above it, "
    "more search still pays)"
)
REAL = "a real difference"
UNCLEAR = "no clear difference"
NO_INTERVAL = "no interval (too few games)"
VERDICTS = (REAL, UNCLEAR, NO_INTERVAL)
VERDICT_RULE = (
    "A difference B − A is called real when its 95% interval excludes 0, and otherwise there is "
    "no clear difference."
)
DIFFERENCE_INTERVAL = (
    "The two sides' games are independent, so a difference's interval combines the two sides' "
    "intervals, √(a² + b²) on each side of it (the spec's √(SE₁² + SE₂²) for a mean; Newcombe's "
    "method for shares, which keeps it within [−1, 1])."
)
FIGURE_SCHEMA = pl.Schema(
    {
        "players": pl.Int64,
        "figure": pl.String,
        "value": pl.Float64,
        "low": pl.Float64,
        "high": pl.Float64,
        "games": pl.Int64,
        "unit": pl.String,
    }
)
LEAD_CHANGES = "games with "  # how the lead-change figures begin: "games with 2 lead changes"
DESIGN = "design: "  # how a design measure's figure begins: "design: drama"
DESIGN_UNITS = {"lead changes": "lead changes"}  # a design measure's unit when not a share
SHARE = "share"  # the unit of a figure within [0, 1]: a share of games or seats, or the balance
SHIPPED_JOIN = "+"  # a shipped rule set named on the command line: kingdoms-2011+no-luck
SIDES = ("A", "B")

# steps done, steps in all: a step is a game played (or found stored), then a game measured
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Comparison:
    """What `compare` found: the setting, each figure of each rule set with its difference and
    verdict (`figures`), each seat position's win share on both sides (`seats`), and the
    parameters that differ (`differences`: parameter, A's value, B's value)."""

    a: RuleSet
    b: RuleSet
    players: tuple[int, ...]
    agents: tuple[str, ...]
    games: int  # asked for per rule set
    seed: int
    level: str
    figures: pl.DataFrame
    seats: pl.DataFrame
    differences: tuple[tuple[str, str, str], ...]
    simulated: int  # games played this time (0 when the lake held them all)
    made: datetime
    engine_version: str = ENGINE_VERSION
    agents_version: int = AGENTS_VERSION

    def verdicts(self) -> dict[str, int]:
        """How many figures got each verdict."""
        counts = self.figures.group_by("verdict").len()
        return dict(zip(counts["verdict"], counts["len"], strict=True))


def compare(
    a: RuleSet,
    b: RuleSet,
    lake: Lake,
    *,
    players: int | None = None,
    games: int = DEFAULT_GAMES,
    agents: tuple[str, ...] = DEFAULT_AGENTS,
    seed: int = 0,
    workers: int | None = None,
    skill_games: int = SKILL_GAMES,
    progress: Progress | None = None,
) -> Comparison:
    """Compare rule sets `a` and `b` at `players` (None: each of 2–4, cycled over the games):
    play `games` games of each into `lake` unless it holds them, read both sides' figures from
    the lake and measure their design, skill depth on `skill_games` games a rung of its ladder
    (0: none). `progress(done, total)` follows the games as they are played (or found stored),
    then as they are measured."""
    counts = PLAYER_COUNTS if players is None else (players,)
    level = table_level(agents)
    plans = [Plan(games, counts, agents, rules, side_seed(rules, seed)) for rules in (a, b)]
    skill = skill_games * len(SKILL_BUDGETS) * len(counts)
    steps = Steps(progress, 4 * games + 2 * skill)
    simulated = 0
    for plan in plans:
        stored = simulate(lake, plan, workers or os.cpu_count() or 1, False, on_progress=steps.on)
        steps.done += games
        simulated += stored.added
    con = connect(lake)
    sides = []
    for plan in plans:
        figures, seats = side_figures(con, plan.rules, level, players)
        design = measured_design(plan)
        steps.done += games
        steps.on(0)
        depth = measured_skill(plan, skill_games, steps)
        every = pl.concat([figures, design, depth]).with_row_index("order")
        sides.append((every, seats))
    return Comparison(
        a=a,
        b=b,
        players=counts,
        agents=agents,
        games=games,
        seed=seed,
        level=level,
        figures=differences_of(*(figures for figures, _ in sides)),
        seats=pl.concat(
            [
                seats.with_columns(side=pl.lit(side))
                for side, (_, seats) in zip(SIDES, sides, strict=True)
            ]
        ),
        differences=parameter_differences(a, b),
        simulated=simulated,
        made=datetime.now(UTC),
    )


@dataclass
class Steps:
    """The comparison's progress: each side's games played or found in the lake, then each
    side's games measured, told to `progress(done, total)`."""

    progress: Progress | None
    total: int
    done: int = 0

    def on(self, within: int) -> None:
        """`within` games done of the step under way."""
        if self.progress:
            self.progress(self.done + within, self.total)


def table_level(agents: tuple[str, ...]) -> str:
    """The play level of the comparison's tables: the weakest agent's (data/levels.py)."""
    check_agents(agents)
    unranked = [name for name in agents if name not in LEVELS]
    if not agents or unranked:
        raise PlanError(
            f"--agents: a comparison seats the named agents ({', '.join(LEVELS)}), "
            f"not '{unranked[0] if unranked else ''}'"
        )
    return min(agents, key=LEVELS.index)


def side_seed(rules: RuleSet, seed: int) -> int:
    """The seed a rule set's games are played on: `seed` moved by the rules' hash, so that the
    two sides' games are independent and the same rule set always gets the same games."""
    return (seed + int(rules_hash(rules), 16)) % MAX_SEED


def side_filters(rules: RuleSet, level: str, players: int | None) -> dict[str, object]:
    """The named queries' filters that keep one side's games: its rules, play level and count."""
    return {"rules": rules_hash(rules), "players": players, "level": level, "source": SOURCE}


def side_figures(
    con: duckdb.DuckDBPyConnection, rules: RuleSet, level: str, players: int | None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """One rule set's figures (players, figure, value, low, high, games; in the Balance page's
    order) and its seat advantage by position, from the lake's named queries."""
    params = side_filters(rules, level, players)
    seats = execute(con, "seat_advantage", {**params, "by": "position"})
    balance = balance_by_players(execute(con, "balance_outcomes", params))
    summary = execute(con, "balance_summary", params)
    leads = execute(con, "lead_changes", params)
    comebacks = execute(con, "comebacks", params)
    leader_wins = execute(con, "leader_wins", params)
    parts = [
        _rows(balance, pl.lit("balance"), "balance", "balance_low", "balance_high", "games"),
        _rows(
            seats,
            pl.format("win share of mover {}", "position"),
            "mean_win_share",
            "ci_low",
            "ci_high",
            "seats",
        ),
        _mean_rows(
            summary,
            "mean winning margin",
            "mean_victory_margin",
            "victory_margin_half_width",
            "gold",
        ),
        _rows(
            summary,
            pl.lit("games won by < 5 gold"),
            "close_game_share",
            "close_game_low",
            "close_game_high",
            "games",
        ),
        _mean_rows(summary, "plies per game", "mean_plies", "plies_half_width", "plies"),
        _rows(
            summary,
            pl.lit("decision moves"),
            "decision_share",
            "decision_low",
            "decision_high",
            "games",
        ),
        _rows(
            leads,
            pl.format(LEAD_CHANGES + "{} lead change{}", "lead_changes", _plural("lead_changes")),
            "share",
            "ci_low",
            "ci_high",
            "of_games",
        ),
        _rows(comebacks, pl.lit("comebacks"), "share", "ci_low", "ci_high", "games"),
        _rows(
            leader_wins,
            pl.format("leader after epoch {} wins", "epoch"),
            "share",
            "ci_low",
            "ci_high",
            "games",
        ),
    ]
    return pl.concat(parts), seats.select(
        "players", "position", "seats", "mean_win_share", "ci_low", "ci_high", "fair_share"
    )


def measured_design(plan: Plan) -> pl.DataFrame:
    """The design measures (data/design.py) of the plan's games, at each player count: the
    games replayed from their seeds, exactly as the lake holds them (the measures read each
    position with the search's fitted leaf, which the lake does not keep)."""
    games = plan_games(plan, 0, plan.games)
    parts = []
    for index, setup in enumerate(games.setups.distinct):
        rows = np.flatnonzero(games.setups.code == index)
        one_setup = Setups(np.zeros(len(rows), np.int64), [setup])
        measures = played_design_measures(replace(games[rows], setups=one_setup))
        parts.append(_design_rows(measures, setup[0]))
    return pl.concat(parts)


def measured_skill(plan: Plan, games: int, steps: Steps) -> pl.DataFrame:
    """Skill depth (data/design.py) at each of the plan's player counts, on `games` games a
    rung of SKILL_BUDGETS: the summary row only (its games, every rung's, pooled)."""
    parts = [pl.DataFrame(schema=FIGURE_SCHEMA)]
    for players in sorted(set(plan.players)) if games else ():
        depth = skill_depth(
            plan.rules, players, games, plan.seed, SKILL_BUDGETS, lambda done, _: steps.on(done)
        )
        parts.append(_design_rows(depth.filter(pl.col("measure") == "skill depth"), players))
        steps.done += games * len(SKILL_BUDGETS)
    return pl.concat(parts)


def _design_rows(measures: pl.DataFrame, players: int) -> pl.DataFrame:
    """Design measures (data/design.py's frame) as the comparison's figure rows."""
    return measures.select(
        pl.lit(players, pl.Int64).alias("players"),
        (DESIGN + pl.col("measure")).alias("figure"),
        "value",
        "low",
        "high",
        "games",
        pl.col("measure").replace_strict(DESIGN_UNITS, default=SHARE).alias("unit"),
    )


def _rows(
    frame: pl.DataFrame,
    figure: pl.Expr,
    value: str,
    low: str,
    high: str,
    games: str,
    unit: str = SHARE,
) -> pl.DataFrame:
    """A query's rows as figures in `unit` (their interval as the query gives it)."""
    return frame.select(
        pl.col("players"),
        figure.alias("figure"),
        pl.col(value).alias("value"),
        pl.col(low).alias("low"),
        pl.col(high).alias("high"),
        pl.col(games).alias("games"),
        pl.lit(unit).alias("unit"),
    ).cast(FIGURE_SCHEMA)


def _plural(count: str) -> pl.Expr:
    return pl.when(pl.col(count) == 1).then(pl.lit("")).otherwise(pl.lit("s"))


def _mean_rows(
    frame: pl.DataFrame, figure: str, mean: str, half_width: str, unit: str
) -> pl.DataFrame:
    """A mean in `unit` and its half width as a figure with its interval."""
    return _rows(
        frame.with_columns(
            _low=pl.col(mean) - pl.col(half_width), _high=pl.col(mean) + pl.col(half_width)
        ),
        pl.lit(figure),
        mean,
        "_low",
        "_high",
        "games",
        unit,
    )


def differences_of(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame:
    """Each figure of both sides with its difference B − A, its interval and its verdict, in
    the figures' order, one player count after another. A number of lead changes that one side
    never saw is 0 of its games there, with its Wilson interval."""
    a, b = _with_unseen_lead_changes(a, b), _with_unseen_lead_changes(b, a)
    joined = a.join(b, on=["players", "figure"], how="inner", suffix="_b").rename(
        {name: f"{name}_a" for name in ("value", "low", "high", "games")}
    )
    difference = pl.col("value_b") - pl.col("value_a")
    low = (
        difference
        - (
            (pl.col("value_b") - pl.col("low_b")) ** 2 + (pl.col("high_a") - pl.col("value_a")) ** 2
        ).sqrt()
    )
    high = (
        difference
        + (
            (pl.col("high_b") - pl.col("value_b")) ** 2 + (pl.col("value_a") - pl.col("low_a")) ** 2
        ).sqrt()
    )
    verdict = (
        pl.when(low.is_null() | high.is_null())
        .then(pl.lit(NO_INTERVAL))
        .when((low > 0) | (high < 0))
        .then(pl.lit(REAL))
        .otherwise(pl.lit(UNCLEAR))
    )
    return (
        joined.with_columns(
            difference=difference, difference_low=low, difference_high=high, verdict=verdict
        )
        .sort("players", "order")
        .select(
            "players",
            "figure",
            "unit",
            "value_a",
            "low_a",
            "high_a",
            "games_a",
            "value_b",
            "low_b",
            "high_b",
            "games_b",
            "difference",
            "difference_low",
            "difference_high",
            "verdict",
        )
    )


def _with_unseen_lead_changes(side: pl.DataFrame, other: pl.DataFrame) -> pl.DataFrame:
    """`side` with a row for each number of lead changes only `other` saw: none of its games."""
    games = side.filter(pl.col("figure") == "balance").select("players", "games")
    unseen = (
        other.filter(pl.col("figure").str.starts_with(LEAD_CHANGES))
        .select("players", "figure", "order")
        .join(side.select("players", "figure"), on=["players", "figure"], how="anti")
        .join(games, on="players")
    )
    if unseen.is_empty():
        return side
    bounds = [wilson_interval(0, count) for count in unseen["games"]]
    return pl.concat(
        [
            side,
            unseen.with_columns(
                value=pl.lit(0.0),
                low=pl.Series([low for low, _ in bounds]),
                high=pl.Series([high for _, high in bounds]),
                unit=pl.lit(SHARE),
            ).select(side.columns),
        ]
    )


def parameter_differences(a: RuleSet, b: RuleSet) -> tuple[tuple[str, str, str], ...]:
    """Every key of the two canonical rule-set texts whose value differs (`section.key`, A's
    value, B's value), in the text's order; the display name is no part of the rules."""
    flat = [_flattened(tomllib.loads(rule_text(rules))) for rules in (a, b)]
    return tuple(
        (key, value, flat[1][key])
        for key, value in flat[0].items()
        if key != "name" and value != flat[1][key]
    )


def _flattened(document: dict, prefix: str = "") -> dict[str, str]:
    """A TOML document's values by dotted key (`tiles.GM`, `castles.3`), each as text."""
    flat: dict[str, str] = {}
    for key, value in document.items():
        if isinstance(value, dict):
            flat |= _flattened(value, f"{prefix}{key}.")
        else:
            flat[f"{prefix}{key}"] = (
                ", ".join(map(str, value)) or "none" if isinstance(value, list) else str(value)
            )
    return flat


def shipped_name(rules: RuleSet) -> str | None:
    """A shipped rule set's command-line name (kingdoms-2011, kingdoms-2011+no-luck), or None
    for other rules."""
    if not is_shipped(rules):
        return None
    return SHIPPED_JOIN.join([rules.edition, *filter(None, rules.variant_text().split(","))])


def shipped_rules(name: str) -> RuleSet | None:
    """The shipped rule set a command-line name names (an edition, then `+variant`s), or None
    when it names no edition (a file, then)."""
    edition, *variants = name.split(SHIPPED_JOIN)
    return rule_set(edition, ",".join(variants)) if edition in EDITIONS else None
