"""A game's play level is its weakest seat's agent; a person at the table makes it recorded."""

from __future__ import annotations

import duckdb
import pytest

from data.levels import ENOUGH_GAMES, default_level, game_levels_sql


@pytest.mark.parametrize(
    ("agents", "level"),
    [
        (["strong", "strong"], "strong"),
        (["strong", "heuristic", "greedy"], "greedy"),
        (["heuristic", "strong", "random", "greedy"], "random"),
        (["heuristic", "heuristic", "strong"], "heuristic"),
        (["mcts-2000", "strong"], "strong"),  # the strong preset's budget
        (["mcts-100", "strong"], "heuristic"),  # below the preset: not counted as strong
        (["strong", None], "recorded"),  # a person at the table
        ([None, None], "recorded"),
    ],
)
def test_a_tables_level_is_its_weakest_seat(agents: list[str | None], level: str) -> None:
    con = duckdb.connect()
    con.execute("CREATE TABLE seats (game_id BIGINT, agent VARCHAR)")
    con.executemany("INSERT INTO seats VALUES (7, ?)", [[agent] for agent in agents])
    assert con.sql(game_levels_sql("seats")).fetchall() == [(7, level)]


@pytest.mark.parametrize(
    ("games", "default"),
    [
        ({"random": 4000, "heuristic": 2000, "strong": ENOUGH_GAMES}, "strong"),
        ({"random": 4000, "heuristic": 2000, "strong": ENOUGH_GAMES - 1}, "heuristic"),
        ({"random": 4000, "recorded": 5}, "random"),  # random is all there is
        ({"random": 10, "greedy": 3}, "greedy"),  # none has enough: the strongest present
        ({"recorded": 5}, "recorded"),
        ({}, None),
    ],
)
def test_the_default_level_is_the_strongest_with_enough_games(
    games: dict[str, int], default: str | None
) -> None:
    assert default_level(games) == default
