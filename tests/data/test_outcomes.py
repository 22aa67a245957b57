"""Seat outcomes are stored exactly: the shares of tied winners add up to 1 in the lake."""

from __future__ import annotations

import json

import pytest

from data.lake import MANIFEST, Lake, LakeVersionError
from data.played import PlayedGame, PlayedGames
from data.reader import connect, execute
from data.schema import SCHEMA_VERSION
from data.store import store_games
from engine.rules import RuleSet
from engine.state import Game
from tests.random_games import random_game

# The first seed for which a random 4-player game ends with three seats tied for most gold
# (183, 178, 183, 183), found by playing seeds 0, 1, 2, … in turn on the kernel.
THREE_WAY_TIE_SEED = 16273


def test_a_three_way_tie_sums_to_exactly_one(tmp_path) -> None:
    state = random_game(Game(4), THREE_WAY_TIE_SEED)
    gold = list(state.returns())
    assert gold.count(max(gold)) == 3
    agents = ("random",) * 4
    played = PlayedGame(4, RuleSet(), state.history, agents, agents, 0)
    lake = Lake(tmp_path)
    store_games(lake, PlayedGames.of([played]), "simulated")
    frame = execute(
        connect(lake),
        "SELECT sum(win_share) AS total, list(win_share ORDER BY seat) AS shares, "
        "list(rank ORDER BY seat) AS ranks, list(utility ORDER BY seat) AS utilities, "
        "typeof(any_value(win_share)) AS type FROM seats",
    )
    total, shares, ranks, utilities, type_ = frame.row(0)
    assert total == 1.0
    assert type_ == "DOUBLE"
    winners = [seat for seat, g in enumerate(gold) if g == max(gold)]
    assert [shares[s] for s in winners] == [1 / 3] * 3
    # the winners share places 1–3 (rank 2); utility 1 − 2·(rank − 1)/(N − 1) = 1/3
    assert [ranks[s] for s in winners] == [2.0] * 3
    assert [utilities[s] for s in winners] == [1 / 3] * 3


@pytest.mark.parametrize("version", [SCHEMA_VERSION - 1, SCHEMA_VERSION + 1])
def test_a_lake_of_another_schema_version_is_refused(tmp_path, version: int) -> None:
    """A lake written before outcomes were stored exactly (or by a newer engine) is refused."""
    (tmp_path / MANIFEST).write_text(json.dumps({"schema_version": version, "batches": []}))
    with pytest.raises(LakeVersionError, match=f"schema version {version}"):
        Lake(tmp_path).batches()
