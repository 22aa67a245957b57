"""A game's play level: how well its table played, the weakest seat's agent deciding it
(random < greedy < heuristic < apprentice < strong), and "recorded" for a game with a person at
it. The apprentice stands above the heuristic: not measurably weaker at 2 players, stronger at 3
(docs/strength.md).

The rule is written once, as the SQL of the `game_levels` view (data/views.py); the
aggregates' compiled path reads a batch's levels through that same view. The pages open on the
strongest level whose figures are precise enough (`default_level`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

from engine.agents.strong import STRONG_ITERATIONS

# The simulated levels, weakest first; a level is also the agent that defines it.
LEVELS = ("random", "greedy", "heuristic", "apprentice", "strong")
RECORDED = "recorded"  # a table with a person at it: not an agent's level
# A level is the pages' default when its figures are precise enough (docs/metrics.md, "Play
# level"): every seat's win share within ± SEAT_WITHIN and the median board cell's castle yield
# within ± CELL_WITHIN gold, at the filters chosen (data/queries/level_precision.sql).
SEAT_WITHIN = 0.05
CELL_WITHIN = 1.5


@dataclass(frozen=True)
class Precision:
    """How precise a level's figures are: the widest seat's win-share half width and the median
    cell's castle-yield half width (infinite where there is no interval)."""

    seat: float
    cell: float

    @property
    def precise(self) -> bool:
        return self.seat <= SEAT_WITHIN and self.cell <= CELL_WITHIN

    @property
    def shortfall(self) -> float:
        """The larger of the two half widths over its limit: at most 1 when precise enough."""
        return max(self.seat / SEAT_WITHIN, self.cell / CELL_WITHIN)


def precisions(frame: pl.DataFrame) -> dict[str, Precision]:
    """Each level's Precision from the rows of `level_precision` (a missing width is infinite)."""
    return {
        row["level"]: Precision(
            math.inf if row["seat_half_width"] is None else row["seat_half_width"],
            math.inf if row["cell_half_width"] is None else row["cell_half_width"],
        )
        for row in frame.iter_rows(named=True)
    }


def _seat_rank(agent: str) -> str:
    """A seat's rank in LEVELS (1 = random), from its agent's name (NULL for a person): the
    compiled search counts as strong from the `strong` preset's budget up, as heuristic below."""
    named = " ".join(f"WHEN '{name}' THEN {rank}" for rank, name in enumerate(LEVELS, start=1))
    strong, heuristic = LEVELS.index("strong") + 1, LEVELS.index("heuristic") + 1
    return (
        f"CASE {agent} {named} ELSE CASE WHEN TRY_CAST(regexp_extract({agent}, "
        f"'^mcts-([0-9]+)$', 1) AS BIGINT) >= {STRONG_ITERATIONS} THEN {strong} "
        f"ELSE {heuristic} END END"
    )


def game_levels_sql(seats: str) -> str:
    """The select of `game_levels` (game_id, level) over a seats table."""
    names = "[" + ", ".join(f"'{name}'" for name in LEVELS) + "]"
    return (
        f"SELECT game_id, CASE WHEN bool_or(agent IS NULL) THEN '{RECORDED}' "
        f"ELSE {names}[min({_seat_rank('agent')})] END AS level "
        f"FROM {seats} GROUP BY game_id"
    )


def default_level(precision: dict[str, Precision]) -> str | None:
    """The strongest simulated level whose figures are precise enough; failing that the one
    nearest to it (the smallest shortfall, the stronger on a tie); the recorded games when no
    simulated level has any; None for an empty lake."""
    present = [level for level in reversed(LEVELS) if level in precision]
    precise = [level for level in present if precision[level].precise]
    if precise:
        return precise[0]
    if present:
        return min(present, key=lambda level: precision[level].shortfall)
    return RECORDED if RECORDED in precision else None
