"""The Player page: a named player's games, reviewed ones and their figures, opened by name from
the URL, on a small lake whose recorded games are partly reviewed."""

from __future__ import annotations

import shutil
import time

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from data.lake import Lake
from data.player import TIMINGS
from data.reader import connect, execute
from data.review_rows import DEFAULT_SEED, review_game
from data.reviews import save_review
from engine.evaluate import DEFAULT_BUDGET
from engine.rules import rule_set
from engine.state import Game
from tests.dashboard.conftest import APP
from tests.lakes import scratch_lake

PLAYER = "Ann"


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """The records' lake with all but the last of Ann's games reviewed as the page reads them."""
    lake = scratch_lake(tmp_path_factory.mktemp("player-lake"))
    con = connect(lake)
    games = _games(lake)["game_id"].to_list()
    for game_id in games[:-1]:
        stored = execute(con, "game_record", {"game_id": game_id}).row(0, named=True)
        game = Game(stored["players"], rule_set(stored["edition"], stored["variant"]))
        review = review_game(game, stored["actions"], DEFAULT_BUDGET, DEFAULT_SEED)
        save_review(lake, game_id, DEFAULT_BUDGET, DEFAULT_SEED, review)
    return lake


def _games(lake: Lake) -> pl.DataFrame:
    """Ann's recorded games and her win share in each, read here without the page's query."""
    return execute(
        connect(lake),
        "SELECT game_id, avg(win_share) AS win_share FROM seats JOIN games USING (game_id) "
        "WHERE source = 'recorded' AND player = $p GROUP BY game_id ORDER BY min(created), game_id",
        {"p": PLAYER},
    )


def _open(lake: Lake, monkeypatch: pytest.MonkeyPatch, **query: str) -> AppTest:
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))
    app = AppTest.from_file(APP, default_timeout=120)  # the app: the page links to Practice
    app.query_params.update(query)
    return app.switch_page("app_pages/player.py").run()


TABLES = {  # a column only each of the page's tables has
    "games": "adjusted",
    "kinds": "kind",
    "kind epochs": "epoch",
    "timings": "timing",
    "starting tile": "share",
    "opponents": "opponent",
}


def _frame(app: AppTest, table: str):
    frames = [frame.value for frame in app.dataframe]
    found = [f for f in frames if TABLES[table] in f.columns]
    if table in ("kinds", "timings"):
        found = [f for f in found if "epoch" not in f.columns and "share" not in f.columns]
    (frame,) = found
    return frame


def test_the_player_in_the_url_opens_with_their_games_and_reviews(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = _games(lake)
    assert games.height >= 3, "the example records seat Ann in three games"
    app = _open(lake, monkeypatch, player=PLAYER)
    assert not app.exception
    assert app.selectbox[0].value == PLAYER
    text = [m.value for m in app.markdown]
    assert f"**{games.height}** recorded games, **{games.height - 1}** reviewed" in text[0]
    assert any(c.value.startswith("1 not reviewed yet") for c in app.caption)
    shown = _frame(app, "games")
    assert sorted(shown["game_id"]) == sorted(games["game_id"].to_list())
    results = dict(zip(games["game_id"], games["win_share"], strict=True))
    for row in shown.to_dict("records"):
        assert row["result"] == pytest.approx(results[row["game_id"]])
        assert row["reviewed"] == (row["game_id"] != games["game_id"][-1])
    # every figure says how many games are behind it and its interval
    accuracy = next(line for line in text if line.startswith("Accuracy"))
    assert f"{games.height - 1} reviewed games" in accuracy and "95% interval" in accuracy
    habits = [line for line in text if line.startswith("You lose most with")]
    assert 1 <= len(habits) <= 3 and all(" moves in " in line for line in habits)
    kinds = _frame(app, "kinds")
    assert set(kinds["kind"]) <= {
        "castle rank 1",
        "castle rank 2",
        "castle rank 3",
        "castle rank 4",
        "drawn tile",
        "starting tile",
        "pass",
    }
    assert kinds["moves"].sum() == _frame(app, "kind epochs")["moves"].sum()
    assert ((kinds["low"] <= kinds["loss"]) & (kinds["loss"] <= kinds["high"])).all()


def test_loss_by_timing_and_the_starting_tile_count_every_reviewed_move(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _open(lake, monkeypatch, player=PLAYER)
    assert not app.exception
    kinds, timings = _frame(app, "kinds"), _frame(app, "timings")
    assert list(timings["timing"]) == [t for t in TIMINGS if t in set(timings["timing"])]
    assert timings["moves"].sum() == kinds["moves"].sum()
    assert timings["games"].max() <= _games(lake).height - 1
    within = timings.dropna(subset=["low"])  # a timing met in one game only has no interval
    assert ((within["low"] >= 0) & (within["low"] <= within["loss"])).all()
    assert ((within["loss"] <= within["high"]) & (within["high"] <= 1)).all()
    starts = _frame(app, "starting tile")
    played = kinds.loc[kinds["kind"] == "starting tile", "moves"].sum()
    assert played > 0 and starts["moves"].sum() == played
    assert starts["share"].sum() == pytest.approx(1.0)
    shares = starts.dropna(subset=["share_low"])
    assert ((shares["share_low"] >= 0) & (shares["share_low"] <= shares["share"])).all()
    assert ((shares["share"] <= shares["share_high"]) & (shares["share_high"] <= 1)).all()


def _reviewing(app: AppTest, deadline_s: float = 600.0) -> AppTest:
    """The page run again each second while its review of the player's games is running."""
    deadline = time.monotonic() + deadline_s
    while app.get("progress"):
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(1.0)
        app.run()
        assert not app.exception
    return app


def test_the_unreviewed_games_are_reviewed_from_the_page_with_progress(
    lake: Lake, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    fresh = scratch_lake(tmp_path_factory.mktemp("player-review-lake"))
    shutil.copytree(lake.root / "reviews", fresh.root / "reviews")  # the same games, ids alike
    games = _games(fresh).height
    app = _open(fresh, monkeypatch, player=PLAYER)
    assert f"**{games - 1}** reviewed" in app.markdown[0].value
    app.button(key="player_review").click().run()
    assert not app.exception
    (bar,) = app.get("progress")
    assert f"{games - 1:,} of {games:,} reviewed" in bar.proto.text
    _reviewing(app)
    assert f"**{games}** recorded games, **{games}** reviewed" in app.markdown[0].value
    assert "games are reviewed" in app.success[0].value
    assert _frame(app, "games")["reviewed"].all()
    assert not [b for b in app.button if b.key == "player_review"]


def test_a_review_that_fails_says_what_went_wrong(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    broken = scratch_lake(tmp_path_factory.mktemp("player-broken-lake"))
    (broken.root / "reviews").write_text("not a folder")  # where the reviews would be kept
    app = _open(broken, monkeypatch, player=PLAYER)
    app.button(key="player_review").click().run()
    _reviewing(app)
    (error,) = app.error
    assert error.value.startswith(f"The review of {PLAYER}'s games stopped: ")
    assert "Not a directory" in error.value
    assert app.button(key="player_review").label.startswith("Review the ")  # to try again


def test_opponents_are_the_others_at_the_players_tables(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    others = execute(
        connect(lake),
        "SELECT DISTINCT player FROM seats WHERE game_id IN (SELECT game_id FROM seats "
        "WHERE player = $p) AND player <> $p",
        {"p": PLAYER},
    )["player"].to_list()
    table = _frame(_open(lake, monkeypatch, player=PLAYER), "opponents")
    assert sorted(table["opponent"]) == sorted(others)
    assert ((table["low"] >= 0) & (table["low"] <= table["win_share"])).all()
    assert ((table["win_share"] <= table["high"]) & (table["high"] <= 1)).all()


def test_choosing_a_player_puts_them_in_the_url(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _open(lake, monkeypatch)
    assert not app.exception and app.selectbox[0].value is None
    app.selectbox[0].select("Bob").run()
    assert app.query_params["player"] == ["Bob"] or app.query_params["player"] == "Bob"
    assert not app.exception


def test_an_unknown_player_is_said_so(lake: Lake, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _open(lake, monkeypatch, player="Nobody")
    assert not app.exception
    assert "Player name 'Nobody' (from the link) has no games" in app.warning[0].value
