"""Boards of every size in the pages: a 6 × 6 and an 8 × 8 rule set's games stored beside the
5 × 6 edition's, each rule set's heatmaps drawn on its own board, and an 8 × 8 game replayed."""

from __future__ import annotations

import json

import polars as pl
import pyarrow as pa
import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from data.cli import main
from data.lake import Lake
from data.reader import connect, execute
from engine.geometry import geometry
from engine.rules import load_rules, rule_set, rules_hash
from tests.dashboard.conftest import open_page

SIX_BY_SIX = 'name = "Six by six"\nbase = "kingdoms-2011"\nrows = 6\ncolumns = 6\n'
# 64 cells: 44 tiles and the castles of two players (20) fill them
EIGHT_BY_EIGHT = """\
name = "Eight by eight"
base = "kingdoms-2011"
rows = 8
columns = 8

[tiles]
"+1" = 4
"+2" = 4
"+3" = 4
"+4" = 4
"+5" = 4
"+6" = 4
"-1" = 2
"-2" = 2
"-3" = 2
"-4" = 2
"-5" = 2
"-6" = 2
MT = 4
DR = 2
"""


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> tuple[Lake, dict[str, tuple[int, int]]]:
    """A lake of 5 × 6, 6 × 6 and 8 × 8 games (simulated from the command line); each rule
    set's hash with its board's rows and columns."""
    folder = tmp_path_factory.mktemp("boards")
    lake = Lake(folder / "lake")
    sizes = {rules_hash(rule_set()): (5, 6)}
    assert main(["simulate", "--games", "8", "--lake", str(lake.root)]) == 0
    for name, text in (("six.toml", SIX_BY_SIX), ("eight.toml", EIGHT_BY_EIGHT)):
        path = folder / name
        path.write_text(text)
        assert (
            main(["simulate", "--rules", str(path), "--games", "8", "--lake", str(lake.root)]) == 0
        )
        rules = load_rules(path)
        sizes[rules_hash(rules)] = (rules.rows, rules.columns)
    return lake, sizes


def _boards_drawn(app: AppTest) -> list[pl.DataFrame]:
    return [
        pl.from_pandas(convert_arrow_bytes_to_pandas_df(chart.proto.datasets[0].data.data))
        for chart in app.get("vega_lite_chart")
    ]


def test_heatmaps_of_several_board_sizes_ask_for_one_rule_set(
    monkeypatch: pytest.MonkeyPatch, boards
) -> None:
    lake, _ = boards
    app = open_page(monkeypatch, lake, "app_pages/heatmaps.py")
    assert not app.exception
    [warning] = [w.value for w in app.warning]
    assert "boards of different sizes" in warning and "Rule set" in warning
    assert all(size in warning for size in ("5 × 6", "6 × 6", "8 × 8"))
    assert not app.get("vega_lite_chart")


@pytest.mark.parametrize(
    "shape", [(5, 6), (6, 6), (8, 8)], ids=lambda shape: "×".join(map(str, shape))
)
def test_heatmaps_draw_the_chosen_rule_sets_board(
    monkeypatch: pytest.MonkeyPatch, boards, shape: tuple[int, int]
) -> None:
    lake, sizes = boards
    hashed = next(rules for rules, size in sizes.items() if size == shape)
    board = geometry(*shape)
    for mirror in ("pooled", "apart"):
        app = open_page(monkeypatch, lake, "app_pages/heatmaps.py", rules=hashed, mirror=mirror)
        assert not app.exception and not app.warning
        [drawn] = _boards_drawn(app)
        assert sorted(drawn["cell"]) == sorted(board.cell_name(c) for c in range(board.cells))
        spec = json.loads(app.get("vega_lite_chart")[0].proto.spec)
        steps = {spec[side]["step"] for side in ("width", "height")}
        assert len(steps) == 1, "square cells of one size, however many rows and columns"
        named = {(5, 6): "Kingdoms (2011)", (6, 6): "Six by six", (8, 8): "Eight by eight"}
        assert f"rule set {named[shape]}" in spec["title"]["subtitle"], "named, not hashed"
        assert set(drawn["column"]) == {name[0] for name in drawn["cell"]}
        assert drawn["observations"].sum() > 0
    cells = app.selectbox(key="heatmap_cell").options
    assert len(cells) == board.cells


def test_an_eight_by_eight_game_replays_on_its_board(
    monkeypatch: pytest.MonkeyPatch, boards
) -> None:
    lake, sizes = boards
    eight = next(rules for rules, size in sizes.items() if size == (8, 8))
    found = execute(connect(lake), "SELECT game_id FROM games WHERE rules = $r", {"r": eight})
    game_id = found["game_id"][0]
    app = open_page(monkeypatch, lake, "app_pages/replay.py", game=str(game_id), ply="999")
    assert not app.exception
    board = app.get("vega_lite_chart")[0].proto.data.data
    cells = pl.from_arrow(pa.ipc.open_stream(board).read_all())
    assert isinstance(cells, pl.DataFrame)
    assert cells.height == 64 and set(cells["row"]) == set(range(1, 9))
    assert (cells["kind"] != "empty").sum() > 0, "the last position's pieces on the board"
    assert any("Eight by eight (8 × 8)" in caption.value for caption in app.caption)


def test_the_lake_of_three_boards_keeps_each_games_cells_on_its_board(boards) -> None:
    lake, sizes = boards
    con = connect(lake)
    for hashed, (rows, columns) in sizes.items():
        seen = execute(
            con,
            "SELECT max(cell_row) AS last_row, max(cell_column) AS last_column FROM moves "
            "JOIN games USING (game_id) WHERE rules = $r",
            {"r": hashed},
        )
        assert seen.row(0) == (rows, columns)
