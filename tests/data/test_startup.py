"""`kingdoms --help`, `score` and `replay` start without the lake's heavy libraries, and run
the kernel without numba."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench.startup_speed import COMMANDS

HEAVY = ("duckdb", "polars", "numba", "pyarrow", "numpy", "streamlit")
# The engine's own arrays: the quick commands run the kernel on them without numba.
ENGINE = ("numpy",)

# Runs one command as the `kingdoms` program does, then names the heavy modules it imported.
PROBE = """
import json, sys
sys.argv[0] = "kingdoms"
from data.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize("key", sorted(COMMANDS))
def test_quick_commands_import_no_heavy_library(key: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *COMMANDS[key]],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout  # the command did its work
    assert set(json.loads(done.stderr.strip().splitlines()[-1])) <= set(ENGINE)


def test_a_data_command_still_loads_its_libraries(tmp_path) -> None:
    """The probe sees imports: `query` needs DuckDB and Polars, and gets them."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE.format(heavy=HEAVY),
            "query",
            "SELECT 1 AS one",
            "--lake",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "one" in done.stdout
    assert {"duckdb", "polars"} <= set(json.loads(done.stderr.strip().splitlines()[-1]))
