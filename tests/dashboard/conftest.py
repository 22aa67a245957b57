"""The dashboard tests read the session's seeded lake (tests/conftest.py), plus an empty one."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from data.lake import Lake

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "streamlit_app.py")


@pytest.fixture(scope="session")
def empty_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return Lake(tmp_path_factory.mktemp("empty_lake"))


def open_page(monkeypatch: pytest.MonkeyPatch, lake: Lake, page: str, **query: str) -> AppTest:
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))
    app = AppTest.from_file(APP, default_timeout=60)
    app.query_params.update(query)
    return app.switch_page(page).run()
