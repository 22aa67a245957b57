"""`kingdoms bench` runs the source tree's bench/ and says in one line what it lacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.cli import main
from data.commands import bench


def test_without_the_source_tree_it_names_the_missing_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setattr(bench, "SOURCE_ROOT", tmp_path)
    assert main(["bench"]) == 2
    assert capsys.readouterr().err == (
        f"bench: no bench/ folder in {tmp_path}: the benchmarks come with the source tree, "
        "not the installed package\n"
    )


def test_an_unknown_part_is_refused_in_one_line(capfd: pytest.CaptureFixture) -> None:
    assert main(["bench", "--only", "engine,speed"]) == 2
    err = capfd.readouterr().err
    assert err == (
        "bench: --only: unknown part 'speed' "
        "(choose from engine, agents, lake, startup, dashboard, browser, replay, cluster, scale, "
        "insights, compare)\n"
    )


def test_a_file_is_refused_as_the_folder_to_write_under(
    tmp_path: Path, capfd: pytest.CaptureFixture
) -> None:
    taken = tmp_path / "taken"
    taken.write_text("kept")
    assert main(["bench", "--only", "startup", "--lake", str(taken)]) == 2
    assert capfd.readouterr().err == f"bench: --lake: {taken} is not a folder\n"
    assert taken.read_text() == "kept"


def test_the_browser_part_without_chromium_says_why_and_measures_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    from bench.browser_speed import browser_figures

    absent = tmp_path / "chromium"
    monkeypatch.setattr("tests.dashboard.browser.CHROMIUM", str(absent))
    assert browser_figures(tmp_path) == {}
    assert capsys.readouterr().err == f"bench: browser: skipped (no Chromium at {absent})\n"
    assert list(tmp_path.iterdir()) == []  # no lake built for nothing
