"""Played games as a designer reads them: every seat's expected win share turn by turn (the
search's fitted leaf, engine/kernel/search.py `leaf_win_shares`), how open each decision was
and how lucky each draw (engine/kernel/trace.py does the replaying, compiled)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.evaluate import CLASS_LIMITS, WIN_SHARE_PER_GOLD
from engine.kernel import trace
from engine.kernel.replay import ENDS_EARLY, refused_list
from engine.kernel.tables import kernel_rules
from engine.rules import RuleSet

_LIMITS = dict(CLASS_LIMITS)
# A move within a "good" move's loss of the best (0.05 win share, 5 gold at the review's rate)
# is sensible; the best stands clearly above the rest when every other move would be a
# mistake or worse (more than an inaccuracy's 0.10 win share, 10 gold, below it).
SENSIBLE_GOLD = _LIMITS["good"] / WIN_SHARE_PER_GOLD
CLEAR_GOLD = _LIMITS["inaccuracy"] / WIN_SHARE_PER_GOLD


@dataclass(frozen=True)
class Traces:
    """What a batch of games showed: game g's points are shares[starts[g]:starts[g + 1]], one
    at the start of every turn and one at the end (the result's win shares)."""

    shares: np.ndarray  # (points, players) every seat's expected win share
    starts: np.ndarray  # (G + 1,)
    acted: np.ndarray  # (G,) plies where a seat acted
    choices: np.ndarray  # (G,) plies with more than one legal action
    clear: np.ndarray  # (G,) plies whose best action stands clearly above every other
    open: np.ndarray  # (G,) plies with more than one sensible action
    luck: np.ndarray  # (G, players) each seat's luck summed over the game's draws

    def game(self, g: int) -> np.ndarray:
        """Game g's points: (turns + 1, players)."""
        return self.shares[self.starts[g] : self.starts[g + 1]]


def trace_games(players: int, rules: RuleSet, actions: np.ndarray, offsets: np.ndarray) -> Traces:
    """Replay game g's actions (`actions[offsets[g]:offsets[g + 1]]`, uint8, or uint16 where
    the rules have more action ids) and read it (engine/kernel/trace.py); ReplayError for a
    list the rules refuse."""
    tables = kernel_rules(players, rules)
    count = len(offsets) - 1
    actions = np.ascontiguousarray(actions)
    offsets = np.asarray(offsets, dtype=np.int64)
    out = trace.Traced(
        np.zeros((len(actions) + count, players), dtype=np.float64),
        np.zeros(count + 1, dtype=np.int64),
        np.zeros((count, trace.DECISION_COLUMNS), dtype=np.int64),
        np.zeros((count, players), dtype=np.float64),
        np.full(3, -1, dtype=np.int64),
    )
    if count:
        trace.trace_games(tables, actions, offsets, SENSIBLE_GOLD, CLEAR_GOLD, out)
    if out.refused[0] >= 0:
        game, position, turn = (int(value) for value in out.refused)
        ended = position > offsets[game + 1] - offsets[game]
        action = ENDS_EARLY if ended else int(actions[offsets[game] + position - 1])
        raise refused_list(game, position, turn, action)
    decisions = out.decisions.T
    return Traces(
        out.shares[: out.starts[-1]],
        out.starts,
        decisions[trace.ACTED],
        decisions[trace.CHOICES],
        decisions[trace.CLEAR],
        decisions[trace.OPEN],
        out.luck,
    )
