"""The play-level filter: every statistics page defaults to the strongest level whose figures are
precise enough, says why and which levels are, follows another choice, and keeps the level in
the URL; figures are greyed by the width of their interval, not by a count of games."""

from __future__ import annotations

import re
from dataclasses import replace

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from data.corpus import Corpus, import_corpus, load_corpus
from data.lake import Lake
from data.simulate import Plan, simulate
from tests.dashboard.conftest import open_page
from tests.dashboard.test_pages import chart_rows

STATISTICS_PAGES = [
    "app_pages/overview.py",
    "app_pages/heatmaps.py",
    "app_pages/tile_impact.py",
    "app_pages/balance.py",
]
# A lake of 100 games of strong play and 5,000 of heuristic play opens on heuristic play: its
# figures are precise enough (seats within ±0.05 need about 385 games at two players, and there
# are about 1,670 at each player count), while strong play's are not, though it is stronger and
# has more than 30 games at each player count. The strong games come from the shipped corpus
# (strong play costs about 5 s a game to play, a few ms to import); random games are the
# baseline that only an agent filter of random leaves.
PRECISE_GAMES = 5000
STRONGER_GAMES = 100
BASELINE_GAMES = 90


def strong_corpus_games(count: int) -> Corpus:
    """The first `count` games of the shipped corpus with strong play at every seat, as even
    as may be across its player counts."""
    corpus = load_corpus()
    games = pl.from_arrow(corpus.games.select(["players", "line_up"])).with_row_index()
    strong = games.filter(
        pl.col("line_up").str.split(",").list.eval(pl.element() == "strong").list.all()
    )
    counts = strong["players"].unique().sort().to_list()
    rows = [
        row
        for at, players in enumerate(counts)
        for row in strong.filter(pl.col("players") == players)["index"]
        .head(count // len(counts) + (at < count % len(counts)))
        .to_list()
    ]
    return replace(corpus, games=corpus.games.take(rows))


@pytest.fixture(scope="module")
def levels_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """Random play as a baseline, precise heuristic play, and a few games of strong play."""
    lake = Lake(tmp_path_factory.mktemp("levels_lake"))
    simulate(lake, Plan(BASELINE_GAMES, (2,), seed=21), progress=False)
    simulate(lake, Plan(PRECISE_GAMES, agents=("heuristic",), seed=22), progress=False)
    import_corpus(lake, strong_corpus_games(STRONGER_GAMES))
    return lake


def matching(app: AppTest) -> str:
    return next(m.value for m in app.metric if m.label == "Matching the filters")


def sidebar_text(app: AppTest) -> str:
    return "\n".join(str(c.value) for c in app.sidebar.caption)


@pytest.mark.parametrize("page", STATISTICS_PAGES)
def test_a_page_defaults_to_the_strongest_level_precise_enough(monkeypatch, levels_lake, page):
    app = open_page(monkeypatch, levels_lake, page)
    assert not app.exception
    level = app.selectbox(key="filter_level")
    assert level.options[:3] == [  # strongest first, each with its games
        f"strong play: {STRONGER_GAMES:,} games",
        f"heuristic play: {PRECISE_GAMES:,} games",
        f"random play (baseline): {BASELINE_GAMES:,} games",
    ]
    assert level.value == "heuristic"  # strong has more than 30 games, but too few to be precise
    said = [c.value for c in app.caption if c.value.startswith("Figures from")]
    assert said == [
        "Figures from **heuristic play**: tables whose weakest seat plays at that level. "
        "Choose another *Play level* in the sidebar."
    ]
    why = [line.strip() for line in sidebar_text(app).splitlines()]  # why, then each level
    assert why[0].startswith(
        "Default: **heuristic play**, the strongest level whose figures are precise enough here"
    )
    assert why[1].startswith("strong play: seats ±0.") and why[1].endswith("· imprecise")
    assert why[2].startswith("heuristic play: seats ±0.0") and why[2].endswith("· precise")
    assert why[3].startswith("random play (baseline)") and why[3].endswith("· imprecise")
    assert app.query_params["level"] == "heuristic", "a link carries the level, default or not"


def test_a_link_opens_on_the_level_it_carries(monkeypatch, levels_lake):
    app = open_page(monkeypatch, levels_lake, "app_pages/overview.py", level="strong")
    assert app.selectbox(key="filter_level").value == "strong"
    assert matching(app) == f"{STRONGER_GAMES:,}"


def test_the_overview_follows_the_chosen_level_and_says_what_each_holds(monkeypatch, levels_lake):
    app = open_page(monkeypatch, levels_lake, "app_pages/overview.py")
    assert matching(app) == f"{PRECISE_GAMES:,}"
    levels = app.dataframe[0].value
    assert levels["play level"].tolist() == [
        "strong play",
        "heuristic play",
        "random play (baseline)",
    ]
    assert levels["games"].tolist() == [STRONGER_GAMES, PRECISE_GAMES, BASELINE_GAMES]
    assert levels["agents at its tables (games)"].tolist()[:2] == [
        f"strong ({STRONGER_GAMES:,})",
        f"heuristic ({PRECISE_GAMES:,})",
    ]
    assert levels["figures"].tolist() == ["imprecise", "precise", "imprecise"]
    app.selectbox(key="filter_level").set_value("strong").run()
    assert not app.exception
    assert matching(app) == f"{STRONGER_GAMES:,}"
    assert app.query_params["level"] == "strong"
    app.selectbox(key="filter_level").set_value("random").run()
    assert matching(app) == f"{BASELINE_GAMES:,}"
    baseline = [c.value for c in app.caption if c.value.startswith("Figures from")]
    assert "**random play (baseline)**" in baseline[0]


def test_every_level_together_is_a_choice_kept_in_the_url(monkeypatch, levels_lake):
    app = open_page(monkeypatch, levels_lake, "app_pages/overview.py", level="All")
    assert app.selectbox(key="filter_level").value == "All"
    assert app.query_params["level"] == "All"
    assert matching(app) == f"{BASELINE_GAMES + PRECISE_GAMES + STRONGER_GAMES:,}"


def test_the_default_follows_the_other_filters(monkeypatch, levels_lake):
    app = open_page(monkeypatch, levels_lake, "app_pages/overview.py", agent="random")
    assert app.selectbox(key="filter_level").value == "random"  # the only level seating it
    assert matching(app) == f"{BASELINE_GAMES:,}"
    assert "no level is precise enough here" in sidebar_text(app)


@pytest.mark.parametrize(("level", "greyed"), [("heuristic", False), ("strong", True)])
def test_greying_follows_the_intervals_width(monkeypatch, levels_lake, level, greyed):
    """Both levels have more than 30 games a position; only the wide intervals are greyed."""
    app = open_page(monkeypatch, levels_lake, "app_pages/balance.py", level=level)
    assert not app.exception
    seats = chart_rows(app, "Mean win share")
    assert all(row["seats"] >= 30 for row in seats)
    widths = [max(r["value"] - r["ci_low"], r["ci_high"] - r["value"]) for r in seats]
    assert all((width > 0.05) == greyed for width in widths)
    assert [row["few"] for row in seats] == [greyed] * len(seats)
    balance = float(next(m.value for m in app.metric if m.label == "Balance, 2 players"))
    card = next(c.value for c in app.caption if c.value.startswith("95% interval"))
    low, high = (float(end) for end in re.findall(r"\d\.\d{3}", card)[:2])
    assert ("imprecise" in card) == (max(balance - low, high - balance) > 0.05)


def test_heatmaps_compare_two_play_levels_side_by_side(monkeypatch, levels_lake):
    app = open_page(
        monkeypatch, levels_lake, "app_pages/heatmaps.py", compare="play level", left="strong"
    )
    assert not app.exception
    assert app.selectbox(key="heatmap_left").options[:3] == ["strong", "heuristic", "random"]
    boards = [m.value for m in app.markdown if " games · " in m.value]
    assert "strong play" in boards[0] and "heuristic play" in boards[1]
