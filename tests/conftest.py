"""The one small seeded lake of the test session, shared by the data and dashboard tests."""

from __future__ import annotations

import sys

import pytest

from data.lake import Lake
from data.reader import connect
from tests.lakes import seeded_lake


@pytest.fixture(scope="session")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return seeded_lake(tmp_path_factory.mktemp("lake"))


@pytest.fixture(scope="session")
def con(lake: Lake):
    return connect(lake)


@pytest.fixture(autouse=True)
def _main_module_kept():
    """Put pytest's `__main__` back after each test: Streamlit's AppTest leaves a page script
    there, which a spawned process (a Dask worker) would then run as it starts."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main
