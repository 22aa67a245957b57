"""`python -m bench`: every speed figure (medians), written only under the folder it is given."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
from pathlib import Path

from data.commands.bench import add_arguments
from engine.cli_support import EXIT_OK, fail_bad_input

# Part: module and function taking the folder to write under and returning {figure: value}.
PARTS = {
    "engine": ("bench.engine_speed", "engine_figures"),
    "agents": ("bench.agent_speed", "agent_figures"),
    "lake": ("bench.lake_speed", "data_figures"),
    "startup": ("bench.startup_speed", "startup_figures"),
    "dashboard": ("bench.dashboard_speed", "dashboard_figures"),
    "browser": ("bench.browser_speed", "browser_figures"),
    "replay": ("bench.replay_speed", "replay_figures"),
    "cluster": ("bench.cluster_speed", "cluster_figures"),
    "scale": ("bench.scale_speed", "scale_figures"),
    "insights": ("bench.insights_speed", "insights_figures"),
    "compare": ("bench.compare_speed", "compare_figures"),
}


def measure(parts: list[str], root: Path, as_json: bool) -> None:
    """Print the figures of each part as it finishes (or one JSON object at the end)."""
    figures: dict[str, float] = {}
    for part in parts:
        module_name, function = PARTS[part]
        main = sys.modules["__main__"]
        part_figures = getattr(importlib.import_module(module_name), function)(root)
        sys.modules["__main__"] = main  # AppTest leaves a page there, which spawned workers run
        figures.update(part_figures)
        if not as_json:
            for key, value in part_figures.items():
                print(f"{key:<32} {value:>12,.2f}", flush=True)
    if as_json:
        print(json.dumps(figures))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    parts = [p.strip() for p in (args.only or ",".join(PARTS)).split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        return fail_bad_input(
            f"bench: --only: unknown part '{unknown[0]}' (choose from {', '.join(PARTS)})"
        )
    if args.lake is None:
        with tempfile.TemporaryDirectory(prefix="kingdoms-bench-") as folder:
            measure(parts, Path(folder), args.json)
        return EXIT_OK
    root = Path(args.lake).resolve()
    if root.exists() and not root.is_dir():
        return fail_bad_input(f"bench: --lake: {args.lake} is not a folder")
    root.mkdir(parents=True, exist_ok=True)
    measure(parts, root, args.json)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
