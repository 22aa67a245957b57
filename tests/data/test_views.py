"""The views' columns: only `games` (and the aggregates) carry the partition columns."""

from __future__ import annotations

import pytest

from data.reader import execute
from data.schema import PARTITION_COLUMNS, aggregate_names

PLAIN_VIEWS = ("seats", "epoch_scores", "moves", "castles", "tile_placements", "tile_impacts")


@pytest.mark.parametrize("view", PLAIN_VIEWS)
def test_game_views_other_than_games_have_no_partition_columns(con, view: str) -> None:
    columns = execute(con, f"SELECT * FROM {view} LIMIT 0").columns
    assert not set(PARTITION_COLUMNS) & set(columns)


@pytest.mark.parametrize("view", ["games", *aggregate_names()])
def test_games_and_the_aggregates_keep_the_partition_columns(con, view: str) -> None:
    columns = execute(con, f"SELECT * FROM {view} LIMIT 0").columns
    assert set(PARTITION_COLUMNS) <= set(columns)


@pytest.mark.parametrize("view", PLAIN_VIEWS)
def test_a_plain_join_with_games_filters_by_source(con, view: str) -> None:
    """`… JOIN games USING (game_id) WHERE source = 'recorded'` binds: `source` is the game's."""
    joined = execute(
        con,
        f"SELECT count(DISTINCT game_id) AS n FROM {view} JOIN games USING (game_id) "
        "WHERE source = 'recorded'",
    )
    recorded = execute(con, "SELECT count(*) AS n FROM games WHERE source = 'recorded'")
    assert joined["n"][0] == recorded["n"][0] > 0
