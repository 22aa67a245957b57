"""The lake's tables from the kernel's replay are the tables the turns' re-reading built.

For every edition × variant, a `simulate` batch (random agents, 2–4 players, and some greedy
games) is turned into tables both ways; every table must be equal, row for row.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from data import rows
from data.simulate import Plan, play_games
from engine.rules import EDITIONS, rule_set

VARIANT_SETS = (
    "",
    "no-luck",
    "last-castle",
    "score-as-you-go",
    "no-luck,last-castle,score-as-you-go",
)


@pytest.mark.parametrize("variants", VARIANT_SETS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_replayed_tables_are_the_reinterpreted_ones(edition: str, variants: str) -> None:
    rules = rule_set(edition, variants)
    games = play_games(Plan(150, rules=rules, seed=4), 0, 150)
    games += play_games(Plan(6, agents=("random", "greedy"), rules=rules, seed=5), 0, 6)
    created = datetime(2026, 12, 2, tzinfo=UTC)
    new = rows.build_tables(games, created)
    old = rows._build_tables_reinterpreted(games, created)
    assert list(new) == list(old)
    for name, table in old.items():
        assert new[name].num_rows == table.num_rows > 0, name
        assert new[name].equals(table), name


def test_mixed_rule_sets_in_one_batch_are_the_reinterpreted_ones() -> None:
    """One batch of every edition × variant at once: each game scored under its own rules."""
    games = []
    for seed, (edition, variants) in enumerate((e, v) for e in EDITIONS for v in VARIANT_SETS):
        games += play_games(Plan(9, rules=rule_set(edition, variants), seed=seed), 0, 9)
    created = datetime(2026, 12, 2, tzinfo=UTC)
    new = rows.build_tables(games, created)
    old = rows._build_tables_reinterpreted(games, created)
    for name, table in old.items():
        assert new[name].equals(table), name
