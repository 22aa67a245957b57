"""A game's play level: how well its table played, the weakest seat's agent deciding it
(random < greedy < heuristic < strong), and "recorded" for a game with a person at it.

The rule is written once, as the SQL of the `game_levels` view (data/views.py); the
aggregates' compiled path reads a batch's levels through that same view.
"""

from __future__ import annotations

from engine.agents.strong import STRONG_ITERATIONS

# The simulated levels, weakest first; a level is also the agent that defines it.
LEVELS = ("random", "greedy", "heuristic", "strong")
RECORDED = "recorded"  # a table with a person at it: not an agent's level
# The fewest games a level needs to be a page's default, and a figure not to be greyed as
# "few games" on the pages; every figure still shows its own interval.
ENOUGH_GAMES = 30


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


def default_level(games_by_level: dict[str, int]) -> str | None:
    """The strongest simulated level with ENOUGH_GAMES games; failing that the strongest with
    any, then the recorded games (None for an empty lake)."""
    present = [level for level in reversed(LEVELS) if games_by_level.get(level, 0) > 0]
    enough = [level for level in present if games_by_level[level] >= ENOUGH_GAMES]
    if enough or present:
        return (enough or present)[0]
    return RECORDED if games_by_level.get(RECORDED, 0) > 0 else None
