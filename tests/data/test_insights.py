"""`kingdoms insights NAME`: a player's recorded games, reviews, accuracy and costly moves, on a
small lake whose recorded games are reviewed at a small budget."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from data.accuracy import seat_accuracy
from data.cli import main
from data.lake import Lake
from data.luck import seat_luck
from data.reader import connect, execute
from data.review_all import pending_reviews
from data.review_rows import review_game
from data.reviews import load_review, save_review
from engine.rules import rule_set
from engine.state import Game
from tests.lakes import scratch_lake

BUDGET, SEED = 20, 1
PLAYER = "Ann"


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return scratch_lake(tmp_path_factory.mktemp("insights-lake"))


def _seats(lake: Lake) -> pl.DataFrame:
    """Every recorded seat of PLAYER, read here without the command's query."""
    return execute(
        connect(lake),
        "SELECT game_id, seat FROM seats JOIN games USING (game_id) "
        "WHERE source = 'recorded' AND player = $p ORDER BY game_id",
        {"p": PLAYER},
    )


def _review(lake: Lake, game_id: int) -> pl.DataFrame:
    stored = execute(connect(lake), "game_record", {"game_id": game_id}).row(0, named=True)
    game = Game(stored["players"], rule_set(stored["edition"], stored["variant"]))
    review = review_game(game, stored["actions"], BUDGET, SEED)
    save_review(lake, game_id, BUDGET, SEED, review)
    return review


def _insights(capsys: pytest.CaptureFixture[str], *extra: str, lake: Lake) -> dict:
    argv = ["insights", PLAYER, "--json", "--budget", str(BUDGET), "--lake", str(lake.root)]
    assert main([*argv, *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_insights_follow_the_reviews_of_the_players_games(
    lake: Lake, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = _seats(lake)
    assert seats["game_id"].n_unique() >= 2, "the example records seat Ann in two games"
    before = _insights(capsys, lake=lake)
    assert before["games"] == seats["game_id"].n_unique() and before["reviewed"] == 0
    assert before["accuracy"] is None and before["interval"] is None

    first, second = seats["game_id"].unique(maintain_order=True).to_list()[:2]
    accuracies, counts = [], {"inaccuracies": 0, "mistakes": 0, "blunders": 0}
    for game_id in (first, second):
        review = _review(lake, game_id)
        seat = seats.filter(pl.col("game_id") == game_id)["seat"][0]
        own = review.filter(pl.col("seat") == seat)
        for name, column in (("inaccuracy", "inaccuracies"), ("mistake", "mistakes")):
            counts[column] += own.filter(pl.col("quality") == name).height
        counts["blunders"] += own.filter(pl.col("quality") == "blunder").height
        table = seat_accuracy(review).filter(pl.col("seat") == seat)
        accuracies.append(table["accuracy"][0])
        if game_id == first:
            one = _insights(capsys, lake=lake)
            assert one["reviewed"] == 1 and one["interval"] is None
            assert one["accuracy"] == pytest.approx(accuracies[0])

    both = _insights(capsys, lake=lake)
    assert both["reviewed"] == 2
    mean = sum(accuracies) / 2
    assert both["accuracy"] == pytest.approx(mean)
    # t at 1 degree of freedom is 12.7062 (tables); SE = |a − b| / 2 for two games
    half = 12.7062 * abs(accuracies[0] - accuracies[1]) / 2
    assert both["interval"] == pytest.approx([max(0, mean - half), min(100, mean + half)], abs=1e-3)
    assert 0 <= both["interval"][0] <= both["interval"][1] <= 100
    assert {k: both[k] for k in counts} == counts
    assert both["moves"] == sum(_review_moves(lake, game_id, seats) for game_id in (first, second))
    assert _insights(capsys, "--seed", "2", lake=lake)["reviewed"] == 0  # another seed's

    # luck and skill: the mean over the two games of each game's figure for Ann's seat
    lucks, skills = [], []
    for game_id in (first, second):
        review = load_review(lake, game_id, BUDGET, SEED)
        results = _results(lake, game_id)
        seat = seats.filter(pl.col("game_id") == game_id)["seat"][0]
        row = seat_luck(review, results).filter(pl.col("seat") == seat).row(0, named=True)
        lucks.append(row["luck"])
        skills.append(row["skill"])
    assert both["luck"]["mean"] == pytest.approx(sum(lucks) / 2)
    assert both["skill"]["mean"] == pytest.approx(sum(skills) / 2)
    low, high = both["skill"]["interval"]
    assert 0 <= low <= both["skill"]["mean"] <= high
    # the costliest habit costs most in all, and its moves are Ann's moves of that kind
    habit = both["habits"][0]
    assert habit["total"] == max(h["total"] for h in both["habits"])
    assert habit["moves"] <= both["moves"] and habit["games"] <= 2


def _results(lake: Lake, game_id: int) -> list[float]:
    seats = execute(
        connect(lake),
        "SELECT win_share FROM seats WHERE game_id = $g ORDER BY seat",
        {"g": game_id},
    )
    return seats["win_share"].to_list()


def _review_moves(lake: Lake, game_id: int, seats: pl.DataFrame) -> int:
    seat = seats.filter(pl.col("game_id") == game_id)["seat"][0]
    plies = execute(
        connect(lake),
        "SELECT count(*) AS n FROM moves WHERE game_id = $g AND seat = $s",
        {"g": game_id, "s": seat},
    )
    return int(plies["n"][0])


def test_a_players_games_are_reviewed_first(lake: Lake) -> None:
    named = set(_seats(lake)["game_id"].to_list())
    jobs, _ = pending_reviews(lake, BUDGET + 1, SEED, PLAYER)  # a budget nothing is reviewed at
    order = [job.game_id in named for job in jobs]
    assert order == sorted(order, reverse=True) and any(order) and not all(order)
    assert [job.game_id for job in jobs[: len(named)]] == sorted(named)


def test_only_a_players_games_when_asked(lake: Lake, capsys: pytest.CaptureFixture[str]) -> None:
    named = sorted(set(_seats(lake)["game_id"].to_list()))
    jobs, already = pending_reviews(lake, BUDGET + 1, SEED, PLAYER, only_player=True)
    assert [job.game_id for job in jobs] == named and already == 0
    argv = ["review", "--all", "--only-player", "--lake", str(lake.root)]
    assert main(argv) == 2
    assert capsys.readouterr().err == "--only-player: only with --all and --player\n"


def test_insights_as_text(lake: Lake, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["insights", PLAYER, "--budget", str(BUDGET), "--lake", str(lake.root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{PLAYER}: ") and "recorded games" in lines[0]
    assert lines[1].startswith("accuracy")  # a figure, or that no game is reviewed yet


def test_a_player_without_games_is_one_line_and_exit_2(
    lake: Lake, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["insights", "Nobody", "--lake", str(lake.root)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "no recorded game of a player named 'Nobody'" in (
        captured.err
    )


def test_insights_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["insights", "--help"]) == 0
    assert "95% interval" in capsys.readouterr().out


def test_a_missing_lake_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["insights", PLAYER, "--lake", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
