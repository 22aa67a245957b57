"""The one small seeded lake of the test session, shared by the data and dashboard tests."""

from __future__ import annotations

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
