"""`kingdoms bench`: every speed figure of the product, engine to dashboard, in one report."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

from engine.cli_support import EXIT_OK, BadInput

NAME = "bench"
HELP = "Measure speed: engine, agents, lake, start-up, dashboard, replay (medians; --json)."

# Parts measured in this process: module and function returning {figure: value}.
IN_PROCESS = {
    "engine": ("engine.benchmarks", "engine_figures"),
    "agents": ("engine.agents.benchmarks", "agent_figures"),
    "lake": ("data.benchmarks", "data_figures"),
    "startup": ("data.cli_benchmarks", "startup_figures"),
}
# The dashboard's parts run as programs printing one JSON object: the data layer never
# imports the dashboard (the same reason `kingdoms dashboard` starts it with streamlit run).
AS_PROGRAM = {
    "dashboard": "dashboard.benchmarks",
    "replay": "dashboard.replay_benchmarks",
}
PARTS = (*IN_PROCESS, *AS_PROGRAM)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object of figures")
    parser.add_argument(
        "--only",
        default=",".join(PARTS),
        help=f"comma-separated parts to measure (default: all of {', '.join(PARTS)})",
    )


def run(args: argparse.Namespace) -> int:
    parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise BadInput(f"--only: unknown part '{unknown[0]}' (choose from {', '.join(PARTS)})")
    figures: dict[str, float] = {}
    for part in parts:
        part_figures = _measure(part)
        figures.update(part_figures)
        if not args.json:
            for key, value in part_figures.items():
                print(f"{key:<32} {value:>12,.2f}", flush=True)
    if args.json:
        print(json.dumps(figures))
    return EXIT_OK


def _measure(part: str) -> dict[str, float]:
    if part in IN_PROCESS:
        module_name, function = IN_PROCESS[part]
        return getattr(importlib.import_module(module_name), function)()
    done = subprocess.run(
        [sys.executable, "-m", AS_PROGRAM[part]], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])
