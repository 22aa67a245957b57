"""`kingdoms bench`: runs the source tree's benchmarks (`python -m bench`), which are not
installed with the product."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import engine
from engine.cli_support import BadInput

NAME = "bench"
HELP = (
    "Measure speed: engine, agents, lake, start-up, dashboard, browser, replay, cluster, scale "
    "(medians; --json). Needs the source tree's bench/ folder beside engine/ (a checkout, as `make "
    "bench` uses)."
)
SOURCE_ROOT = Path(engine.__file__).resolve().parents[1]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object of figures")
    parser.add_argument(
        "--only",
        help="comma-separated parts to measure: engine, agents, lake, startup, dashboard, "
        "browser, replay, cluster, scale, insights, compare (default: all; browser needs Debian's "
        "Chromium, `make browser`, and Playwright, the dev extra, and is skipped saying so "
        "without them; scale builds a 100 M-move lake once, about 6 minutes, and insights 1,000 "
        "reviewed recorded games, about 13 minutes on 2 busy cores, both kept under --lake)",
    )
    parser.add_argument(
        "--lake",
        help="folder the benchmarks write under, their lakes kept there for the next run "
        "(default: a temporary folder, removed afterwards)",
    )


def run(args: argparse.Namespace) -> int:
    if not (SOURCE_ROOT / "bench" / "__main__.py").is_file():
        raise BadInput(
            f"bench: no bench/ folder in {SOURCE_ROOT}: the benchmarks come with the source "
            "tree, not the installed package"
        )
    command = [sys.executable, "-m", "bench"]
    if args.json:
        command.append("--json")
    if args.only is not None:
        command += ["--only", args.only]
    if args.lake is not None:
        command += ["--lake", str(Path(args.lake).resolve())]
    path = os.pathsep.join(p for p in (str(SOURCE_ROOT), os.environ.get("PYTHONPATH")) if p)
    return subprocess.run(command, env={**os.environ, "PYTHONPATH": path}, check=False).returncode
