"""`kingdoms tournament --lake`: the tournament's games are kept in the lake, once."""

from pathlib import Path

import pytest

from data.cli import main
from data.lake import Lake
from data.reader import connect, execute


def test_tournament_games_land_in_the_lake_once(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    args = ["tournament", "--agents", "random,greedy", "--games", "4", "--seed", "5"]
    args += ["--workers", "1", "--lake", str(tmp_path)]
    assert main(args) == 0
    assert main(args) == 0  # the same seed plays the same games: nothing new is added
    capsys.readouterr()
    seats = execute(
        connect(Lake(tmp_path)),
        "SELECT agent, count(*) AS seats, sum(win_share) AS wins FROM seats GROUP BY agent",
    )
    by_agent = {row["agent"]: row for row in seats.iter_rows(named=True)}
    assert by_agent["random"]["seats"] == by_agent["greedy"]["seats"] == 4
    assert by_agent["random"]["wins"] + by_agent["greedy"]["wins"] == pytest.approx(4)
