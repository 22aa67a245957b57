"""The dashboard tests read the data tests' seeded session lake, plus an empty one."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.lake import Lake
from tests.data.conftest import lake  # noqa: F401 - the shared seeded lake fixture

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "streamlit_app.py")


@pytest.fixture(scope="session")
def empty_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return Lake(tmp_path_factory.mktemp("empty_lake"))
