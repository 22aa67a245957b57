"""The replay viewer: open a game by URL at a ply, step, review and jump, pick a game."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import polars as pl
import pyarrow as pa
import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from dashboard.review import BADGES, FLAGGED, loss_text, luck_verdict
from dashboard.timeline import Timeline
from data.importer import played_from_text, store_records
from data.lake import Lake
from data.luck import seat_luck
from data.reader import connect, execute
from data.review_rows import DEFAULT_SEED, review_game
from data.reviews import load_review, save_review
from engine import pieces
from engine.evaluate import DEFAULT_BUDGET
from engine.record import record_from_state, write_record
from engine.rules import rule_set
from engine.state import Game
from tests.dashboard.conftest import open_page
from tests.lakes import APP_PAGES, scratch_lake
from tests.random_games import random_game

PAGE = str(APP_PAGES / "replay.py")


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return scratch_lake(tmp_path_factory.mktemp("replay-lake"))


@pytest.fixture(autouse=True)
def use_lake(lake: Lake, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))


@pytest.fixture(scope="module")
def game(lake: Lake) -> tuple[int, Timeline]:
    """A simulated 3-player game of the lake and its timeline, read straight from the lake."""
    con = connect(lake)
    row = execute(con, "SELECT game_id FROM games WHERE players = 3 AND source = 'simulated'")
    game_id = row["game_id"][0]
    stored = execute(con, "game_record", {"game_id": game_id}).row(0, named=True)
    rules = rule_set(stored["edition"], stored["variant"])
    return game_id, Timeline(Game(stored["players"], rules), list(stored["actions"]))


def _timeline(lake: Lake, game_id: int) -> Timeline:
    stored = execute(connect(lake), "game_record", {"game_id": game_id}).row(0, named=True)
    rules = rule_set(stored["edition"], stored["variant"])
    return Timeline(Game(stored["players"], rules), list(stored["actions"]))


@pytest.fixture(scope="module")
def reviewed(lake: Lake) -> tuple[int, Timeline, pl.DataFrame]:
    """A simulated 2-player game reviewed by the engine as the page would (its default budget
    and seed), the review kept in the lake."""
    con = connect(lake)
    game_id = execute(con, "SELECT min(game_id) AS g FROM games WHERE players = 2")["g"][0]
    timeline = _timeline(lake, game_id)
    review = review_game(timeline.game, timeline.actions, DEFAULT_BUDGET, DEFAULT_SEED)
    save_review(lake, game_id, DEFAULT_BUDGET, DEFAULT_SEED, review)
    return game_id, timeline, review


def _open(game_id: int, ply: int | str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.query_params["game"] = str(game_id)
    app.query_params["ply"] = str(ply)
    return app.run()


def _gold(app: AppTest) -> list[int]:
    return [int(g) for g in app.dataframe[0].value["gold"].tolist()]


def _board(app: AppTest) -> str:
    """The board chart's Vega-Lite spec (the first chart of the page)."""
    return app.get("vega_lite_chart")[0].proto.spec


def _board_rows(app: AppTest) -> bytes:
    """The board chart's cells, as the page sends them (Arrow)."""
    return app.get("vega_lite_chart")[0].proto.data.data


def _board_cells(app: AppTest) -> pl.DataFrame:
    """The board chart's cells as a frame (cell, token, last, best, …)."""
    return pl.from_arrow(pa.ipc.open_stream(_board_rows(app)).read_all())


def test_open_a_game_by_url_at_a_ply(game: tuple[int, Timeline]) -> None:
    game_id, timeline = game
    app = _open(game_id, 30)
    assert not app.exception
    assert app.markdown[0].value.startswith("**Move 30** (epoch 1, turn 30): ")
    assert timeline.moves[29].text in app.markdown[0].value
    assert _gold(app) == list(timeline.positions[30].gold)
    assert app.slider(key="replay_slider").value == 30
    assert any("Epoch 1 scored" in m.value for m in app.markdown)


def test_step_forward_and_back_changes_board_and_gold(game: tuple[int, Timeline]) -> None:
    game_id, timeline = game
    app = _open(game_id, 30)
    board_before, rows_before = _board(app), _board_rows(app)
    app.button(key="replay_forward").click().run()
    assert app.query_params["ply"] == ["31"] or app.query_params["ply"] == "31"
    assert _gold(app) == list(timeline.positions[31].gold)
    assert _board(app) != board_before
    assert _board_rows(app) != rows_before
    app.button(key="replay_back").click().run()
    app.button(key="replay_back").click().run()
    assert app.slider(key="replay_slider").value == 29
    assert _gold(app) == list(timeline.positions[29].gold)
    app.button(key="replay_last").click().run()
    assert _gold(app) == list(timeline.positions[-1].gold)


def test_out_of_range_ply_and_unknown_game_are_handled(game: tuple[int, Timeline]) -> None:
    game_id, timeline = game
    assert _open(game_id, 10_000).slider(key="replay_slider").value == timeline.plies
    assert _open(game_id, "x").slider(key="replay_slider").value == 0
    missing = _open(12345, 3)
    assert not missing.exception
    assert "no game" in missing.warning[0].value


def test_pick_a_game_from_the_search(game: tuple[int, Timeline]) -> None:
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not app.exception
    choice = app.selectbox(key="replay_choice")
    choice.set_value(choice.options and game[0]).run()
    assert app.query_params["game"] in (str(game[0]), [str(game[0])])
    assert app.slider(key="replay_slider").value == 0


def _listed(app: AppTest) -> dict[str, dict]:
    """Every game the page lists, by id: its row of the list."""
    return {
        row["game_id"]: row
        for frame in app.dataframe
        if "game_id" in frame.value.columns
        for row in frame.value.to_dict("records")
    }


def test_a_just_saved_game_is_listed_with_its_date_whatever_the_level(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    """The default play level is a simulated one (random, the only level of this lake's
    simulated games), yet the game just saved is in the list, with the record's Date, which the
    page's "played between" filters on."""
    lake = scratch_lake(tmp_path / "lake")
    state = random_game(Game(2), 31)
    tags = {"Edition": "kingdoms-2011", "Date": "2025.06.01", "A": "Zoe", "B": "Yan"}
    saved = played_from_text(write_record(record_from_state(state, tags)))
    assert store_records(lake, [saved], []).added == 1
    game_id = str(saved.game_id)

    app = open_page(monkeypatch, lake, "app_pages/replay.py")
    assert not app.exception
    assert app.selectbox(key="filter_level").value == "random"
    listed = _listed(app)
    assert game_id in listed
    assert str(listed[game_id]["played"])[:10] == "2025-06-01"
    assert str(listed[game_id]["stored"])[:10] == datetime.now(UTC).date().isoformat()
    assert list(listed).index(game_id) == 0  # the latest stored first

    app.date_input(key="replay_played").set_value((date(2025, 6, 1), date(2025, 6, 2))).run()
    assert set(_listed(app)) == {game_id}  # the examples were played in November 2026
    app.date_input(key="replay_played").set_value((date(2026, 11, 1), date(2026, 11, 30))).run()
    listed = _listed(app)
    assert game_id not in listed and listed


@pytest.mark.slow
def test_review_then_jump_to_a_costly_move(lake: Lake, game: tuple[int, Timeline]) -> None:
    game_id, timeline = game
    app = _open(game_id, 5)
    app.button(key="replay_review").click().run()
    assert not app.exception
    review = load_review(lake, game_id, DEFAULT_BUDGET, DEFAULT_SEED)
    assert review is not None and review.height == timeline.plies
    jump = app.selectbox(key="replay_jump")
    target = next(p for p in jump.options if p not in (None, "—"))
    jump.select(target).run()
    ply = int(str(target).split()[1]) if not str(target).isdigit() else int(target)
    assert app.slider(key="replay_slider").value == ply
    assert "loses" in app.markdown[0].value or "best" in app.markdown[0].value


def test_a_shared_read_only_dashboard_offers_no_review_to_store(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = execute(connect(lake), "SELECT max(game_id) AS g FROM games WHERE players = 4")["g"][
        0
    ]
    monkeypatch.setenv("KINGDOMS_DASHBOARD_SHARED", "1")
    before = sorted(p.relative_to(lake.root) for p in lake.root.rglob("*"))
    app = _open(game_id, 5)
    assert not app.exception
    assert not [b for b in app.button if b.key == "replay_review"]
    assert any("read-only" in c.value for c in app.caption)
    assert sorted(p.relative_to(lake.root) for p in lake.root.rglob("*")) == before


def test_jump_list_goes_from_the_costliest_move_down_with_units(reviewed) -> None:
    game_id, _, review = reviewed
    flagged = [
        r
        for r in review.iter_rows(named=True)
        if r["quality"] in ("inaccuracy", "mistake", "blunder")
    ]
    assert flagged, "the reviewed game has no costly move to list"
    expected = [r["ply"] for r in sorted(flagged, key=lambda r: (-r["loss"], r["ply"]))]
    app = _open(game_id, 0)
    labels = app.selectbox(key="replay_jump").options[1:]
    assert [int(label.split()[1]) for label in labels] == expected
    first = next(r for r in flagged if r["ply"] == expected[0])
    assert labels[0].endswith(loss_text(first))


def test_a_stored_reviews_classes_come_in_the_order_of_its_losses(reviewed) -> None:
    _, _, review = reviewed
    order = {name: rank for rank, name in enumerate(BADGES)}
    rows = list(review.iter_rows(named=True))
    assert any(r["decided"] and r["quality"] != "best" for r in rows)
    assert not [
        (a["ply"], b["ply"])
        for a in rows
        for b in rows
        if a["loss"] < b["loss"] and order[a["quality"]] > order[b["quality"]]
    ]


def test_the_evaluation_graph_names_its_lines_after_the_players(lake: Lake, reviewed) -> None:
    game_id, _, _ = reviewed
    stored = execute(connect(lake), "game_record", {"game_id": game_id}).row(0, named=True)
    names = stored["seat_players"]
    players = [f"{name} ({letter})" for letter, name in zip("AB", names, strict=True)]
    specs = [json.loads(chart.proto.spec) for chart in _open(game_id, 3).get("vega_lite_chart")]
    graph = next(spec for spec in specs if "expected win share" in json.dumps(spec))
    line = next(layer for layer in graph["layer"] if layer["mark"].get("type") == "line")
    assert line["encoding"]["color"]["scale"]["domain"] == players
    assert line["mark"]["interpolate"] == "step-after"


def test_a_flagged_move_shows_the_position_before_it_and_the_alternative(reviewed) -> None:
    game_id, timeline, review = reviewed
    row = next(
        r
        for r in review.iter_rows(named=True)
        if r["quality"] in ("inaccuracy", "mistake", "blunder") and r["best_cell"] is not None
    )
    ply = row["ply"]
    app = _open(game_id, ply)
    cells = _board_cells(app)
    before = [pieces.piece_token(p) for p in timeline.positions[ply - 1].board]
    assert cells["token"].to_list() == before
    assert cells.filter(pl.col("best"))["cell"].to_list() == [row["best_cell"]]
    played = timeline.geometry.cell_name(timeline.moves[ply - 1].move.cell)
    assert cells.filter(pl.col("last"))["cell"].to_list() == [played]
    assert any(f"Before move {ply}" in c.value for c in app.caption)
    assert _gold(app) == list(timeline.positions[ply - 1].gold)  # the seats as on the board
    to_move = app.dataframe[0].value["to move"].tolist()
    assert to_move.index("●") == timeline.moves[ply - 1].seat


def test_no_alternative_is_drawn_on_a_full_board(reviewed) -> None:
    game_id, timeline, review = reviewed
    end = timeline.epoch_end_plies()[0]
    assert review.filter(pl.col("ply") == end + 1)["best_cell"][0] is not None
    cells = _board_cells(_open(game_id, end))
    assert cells.filter(pl.col("token") == ".")["cell"].to_list() == []
    assert not cells["best"].any()


def test_the_first_player_is_named_by_seat_and_name(lake: Lake) -> None:
    con = connect(lake)
    recorded = execute(con, "SELECT min(game_id) AS g FROM games WHERE source = 'recorded'")
    game_id = recorded["g"][0]
    stored = execute(con, "game_record", {"game_id": game_id}).row(0, named=True)
    first = _timeline(lake, game_id).positions[0].to_move
    letter, name = "ABCD"[first], stored["seat_players"][first]
    app = _open(game_id, 0)
    assert f"**Start of the game.** {letter} {name} moves first." == app.markdown[0].value
    simulated = execute(con, "SELECT min(game_id) AS g FROM games WHERE source = 'simulated'")
    opening = _open(simulated["g"][0], 0).markdown[0].value
    assert "moves first (played by the random agent)" in opening
    assert not opening.startswith("**Start of the game.** random")


def test_the_accuracy_table_names_the_players_with_their_costly_moves(lake: Lake, reviewed) -> None:
    game_id, _, review = reviewed
    names = execute(connect(lake), "game_record", {"game_id": game_id})["seat_players"][0]
    app = _open(game_id, 3)
    assert not app.exception
    table = next(frame.value for frame in app.dataframe if "accuracy" in frame.value.columns)
    assert table["player"].tolist() == [
        f"{name} ({letter})" for letter, name in zip("AB", names, strict=True)
    ]
    assert [c for c in table.columns if c.startswith("epoch ")] == ["epoch 1", "epoch 2", "epoch 3"]
    for seat, row in enumerate(table.to_dict("records")):
        own = review.filter(pl.col("seat") == "AB"[seat])
        counts = [own.filter(pl.col("quality") == q).height for q in FLAGGED]
        assert [row["inaccuracies"], row["mistakes"], row["blunders"]] == counts
        assert row["moves"] == own.height
        assert 0 <= row["accuracy"] < 100  # every seat of the game lost something


def test_each_player_has_a_line_of_luck_and_skill(lake: Lake, reviewed) -> None:
    game_id, _, review = reviewed
    seats = execute(
        connect(lake),
        "SELECT seat, player, win_share FROM seats WHERE game_id = $g ORDER BY seat",
        {"g": game_id},
    )
    table = seat_luck(review, seats["win_share"].to_list())
    shown = [m.value for m in _open(game_id, 3).markdown]
    for seat, row in enumerate(table.iter_rows(named=True)):
        line = luck_verdict(f"{seats['player'][seat]} ({'AB'[seat]})", row)
        assert line in shown
        assert f"a result of {row['result']:.2f} of a win" in line


def test_the_evaluation_graph_rings_the_key_moments(reviewed) -> None:
    game_id, _, review = reviewed
    chart = next(
        chart
        for chart in _open(game_id, 3).get("vega_lite_chart")
        if "expected win share" in chart.proto.spec
    )
    marked = next(
        layer for layer in json.loads(chart.proto.spec)["layer"] if "shape" in layer["encoding"]
    )
    sent = {named.name: named.data.data for named in chart.proto.datasets}
    rings = convert_arrow_bytes_to_pandas_df(sent[marked["data"]["name"]]).to_dict("records")
    costliest = review.filter(pl.col("quality").is_in(FLAGGED)).sort("loss", descending=True)
    losses = {row["ply"] for row in rings if row["moment"] == "largest loss"}
    assert losses == set(costliest["ply"].head(3).to_list())
    changes = [row["ply"] for row in rings if row["moment"] == "lead change"]
    leaders = [int(max(range(2), key=lambda s: e[s])) for e in review["expected"].to_list()]
    for ply in changes:
        assert leaders[ply - 1] != leaders[ply - 2]
