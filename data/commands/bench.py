"""`kingdoms bench`: every speed figure of the product, engine to lake, in one report."""

from __future__ import annotations

import argparse
import importlib
import json

from engine.cli_support import EXIT_OK

NAME = "bench"
HELP = "Measure speed: playouts, scoring, agents, lake (medians; --json for one object)."

# Each part names the module and function that measures it; parts that are not installed
# yet (a layer still being built) are skipped rather than guessed.
PARTS = {
    "engine": ("engine.benchmarks", "engine_figures"),
    "agents": ("engine.agents.benchmarks", "agent_figures"),
    "lake": ("data.benchmarks", "data_figures"),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object of figures")
    parser.add_argument(
        "--only",
        default=",".join(PARTS),
        help=f"comma-separated parts to measure (default: all of {', '.join(PARTS)})",
    )


def run(args: argparse.Namespace) -> int:
    figures: dict[str, float] = {}
    for part in [p.strip() for p in args.only.split(",") if p.strip()]:
        if part not in PARTS:
            from engine.cli_support import BadInput

            raise BadInput(f"--only: unknown part '{part}' (choose from {', '.join(PARTS)})")
        module_name, function = PARTS[part]
        module = importlib.import_module(module_name)
        part_figures = getattr(module, function)()
        figures.update(part_figures)
        if not args.json:
            for key, value in part_figures.items():
                print(f"{key:<32} {value:>12,.2f}", flush=True)
    if args.json:
        print(json.dumps(figures))
    return EXIT_OK
