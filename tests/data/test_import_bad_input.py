"""`kingdoms import` of bad records next to good ones, through the installed command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa

from data.lake import Lake
from data.reader import connect, execute
from data.schema import TABLE_SCHEMAS
from engine.record import SEED_RANGE
from tests.lakes import RECORDS

KINGDOMS = str(Path(sys.executable).parent / "kingdoms")  # the installed command
GOOD = RECORDS / "2026-11-02-ann-bob.kgn"


def _with_seed(path: Path, seed: str) -> Path:
    """The good record with a `[Seed "…"]` tag on line 7 (value at column 8)."""
    lines = GOOD.read_text().split("\n")
    lines.insert(6, f'[Seed "{seed}"]')
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_the_seed_range_is_what_the_lake_stores() -> None:
    assert TABLE_SCHEMAS["games"].field("seed").type == pa.int64()
    bounds = np.iinfo(np.int64)
    assert (bounds.min, bounds.max) == SEED_RANGE


def test_bad_files_are_reported_and_the_good_one_imported(tmp_path: Path) -> None:
    bad = [
        _with_seed(tmp_path / f"bad-{index}.kgn", seed)
        for index, seed in enumerate(["--5", "²", "99999999999999999999999"])
    ]
    good = _with_seed(tmp_path / "good.kgn", "-9223372036854775808")
    lake = tmp_path / "lake"
    done = subprocess.run(
        [KINGDOMS, "import", str(bad[0]), str(good), *map(str, bad[1:]), "--lake", str(lake)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert "Traceback" not in done.stderr
    assert [line.split(": ")[0] for line in lines[:-1]] == [f"{path}:7:8" for path in bad]
    assert all("Seed must be a whole number" in line for line in lines[:-1])
    assert lines[-1] == "imported 1 games, 0 already in the lake, 3 bad"
    games = execute(connect(Lake(lake)), "SELECT seed FROM games")
    assert games["seed"].to_list() == [-(2**63)]
