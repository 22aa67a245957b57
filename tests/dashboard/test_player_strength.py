"""The Player page's estimated strength: each agent's mean accuracy with its games and interval,
the player's placed among them, on a small lake whose recorded games and agents' games are
reviewed at a tiny budget (the page's budget set to it here)."""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import engine.evaluate
from data.lake import Lake
from data.review_all import review_agents, review_all
from data.review_rows import DEFAULT_SEED
from data.simulate import Plan, simulate
from data.strength import Rung, place
from tests.dashboard.conftest import APP
from tests.lakes import scratch_lake

PLAYER = "Ann"
BUDGET, SAMPLE = 2, 2


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """Random games, greedy against random, the records; every recorded game and each agent's
    sample reviewed at BUDGET."""
    lake = scratch_lake(tmp_path_factory.mktemp("strength-lake"))
    simulate(lake, Plan(4, players=(2,), agents=("greedy", "random"), seed=12), progress=False)
    review_all(lake, BUDGET, DEFAULT_SEED, progress=False)
    review_agents(lake, BUDGET, DEFAULT_SEED, SAMPLE, progress=False)
    return lake


def _open(lake: Lake, monkeypatch: pytest.MonkeyPatch, budget: int) -> AppTest:
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))
    monkeypatch.setattr(engine.evaluate, "DEFAULT_BUDGET", budget)  # the page's review budget
    st.cache_data.clear()  # the page caches by the lake's version, which the budget leaves as is
    app = AppTest.from_file(APP, default_timeout=120)  # the app: the page links to Practice
    app.query_params["player"] = PLAYER
    return app.switch_page("app_pages/player.py").run()


def test_the_player_is_placed_among_the_agents_accuracies(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _open(lake, monkeypatch, BUDGET)
    assert not app.exception
    (table,) = [f.value for f in app.dataframe if "agent" in f.value.columns]
    rows = {row["agent"]: row for row in table.to_dict("records")}
    assert list(rows) == ["random", "greedy", "heuristic", "apprentice", "strong"]
    assert rows["random"]["games"] >= SAMPLE and rows["greedy"]["games"] >= SAMPLE
    assert all(rows[a]["games"] == 0 for a in ("heuristic", "apprentice", "strong"))
    for agent in ("random", "greedy"):
        row = rows[agent]
        assert 0 <= row["low"] <= row["mean"] <= row["high"] <= 100
    accuracy = next(m.value for m in app.markdown if m.value.startswith("Accuracy **"))
    mean = float(accuracy.split("**")[1])
    ladder = [Rung(a, r["games"], r["mean"], None) for a, r in rows.items() if r["games"]]
    said = next(m.value for m in app.markdown if m.value.startswith("By accuracy"))
    assert place(mean, ladder).text() in said.replace("\\", "")
    assert "By results: **none**" in [m.value for m in app.markdown if "By results" in m.value][0]
    specs = [chart.proto.spec for chart in app.get("vega_lite_chart")]
    assert any("crimson" in spec and "low" in spec for spec in specs)


def test_without_agent_reviews_the_page_says_how_to_make_them(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _open(lake, monkeypatch, BUDGET + 1)  # nothing reviewed at this budget
    assert not app.exception
    told = [i.value for i in app.info if "No agent game reviewed yet" in i.value]
    assert told and "kingdoms review --all --agents-sample 20" in told[0]
    (table,) = [f.value for f in app.dataframe if "agent" in f.value.columns]
    assert (table["games"] == 0).all()
