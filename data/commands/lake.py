"""`kingdoms lake check`: read the whole lake and list what is damaged (`--repair`: list the
good batches on disk again); `kingdoms lake compact`: merge its small batches."""

from __future__ import annotations

import argparse
import json
import sys

from data.commands.lake_options import add_lake_argument, open_lake
from engine.cli_support import EXIT_BAD_INPUT, EXIT_OK

NAME = "lake"
HELP = (
    "Look after the lake: `check` reads every file and lists what is damaged (`--repair` lists "
    "the good batches on disk again); `compact` merges small batches."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="read the manifest and every listed file to the end; list each damaged one and "
        "each batch on disk the manifest does not list (exit 0 when healthy, 2 when damaged)",
        description="Read the manifest and every listed file to the end; list each damaged "
        "file, and each batch on disk the manifest does not list (exit 0 when healthy, 2 when "
        "damaged). With --repair, under the writer lock: check every batch on disk, list the "
        "good ones in a new manifest (written atomically), and move the damaged ones, and "
        "batches holding games a kept batch holds, under _set_aside/<time>/ with the old "
        "manifest: nothing is deleted.",
    )
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument(
        "--repair",
        action="store_true",
        help="rebuild the manifest from the good batches on disk; set the others aside "
        "(never deleted); exit 0 once the lake is healthy",
    )
    add_lake_argument(check)
    compact = actions.add_parser(
        "compact",
        help="merge each source's small batches (under 1,000 games) into batches of up to "
        "20,000: fewer files to open; readers see the old batches or the new, never both",
        description="Merge each source's small batches (under 1,000 games) into batches of up "
        "to 20,000 games, every row kept. Readers see the old batches or the new, never both; "
        "killed part-way, the lake keeps the old ones; run twice, the second changes nothing.",
    )
    add_lake_argument(compact)


def run(args: argparse.Namespace) -> int:
    return _compact(args) if args.action == "compact" else _check(args)


def _compact(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from data.compact import compact, merge_groups

    lake = open_lake(args)
    total = sum(len(group) for group in merge_groups(lake.batches()))
    with tqdm(total=total, unit="batch", disable=not sys.stderr.isatty()) as bar:
        done = compact(lake, bar.update)
    print(f"{lake.root}: merged {done.merged:,} small batches into {done.into:,}", file=sys.stderr)
    return EXIT_OK


def suggest_compaction(args: argparse.Namespace) -> None:
    """After a write, a line on stderr suggesting `kingdoms lake compact` when the lake holds
    more small batches than SUGGEST_AFTER."""
    from data.compact import SUGGEST_AFTER, small_batches

    lake = open_lake(args)
    small = small_batches(lake)
    if small > SUGGEST_AFTER:
        print(
            f"{lake.root} holds {small:,} small batches; `kingdoms lake compact --lake "
            f"{lake.root}` merges them so that queries open fewer files",
            file=sys.stderr,
        )


def _check(args: argparse.Namespace) -> int:
    from data.lake_check import check_lake
    from data.lake_repair import repair_lake

    lake = open_lake(args)
    if args.repair:
        repair = repair_lake(lake)
        found, done, health = repair.found, repair.done, repair.health
    else:
        health = check_lake(lake)
        found, done = health.damage, ()
    if args.json:
        report = {
            "lake": str(lake.root),
            "healthy": health.healthy,
            "batches": health.batches,
            "games": health.games,
            "files": health.files,
            "damage": [damage.as_dict() for damage in found],
            **({"repaired": list(done)} if args.repair else {}),
        }
        print(json.dumps(report))
    else:
        for line in (*map(str, found), *done):
            print(line)
        count = len(health.damage)
        state = "healthy" if health.healthy else f"damaged ({count} problem{'s' * (count > 1)})"
        state = "repaired" if done else state
        print(
            f"{lake.root}: {state}; {health.batches:,} batches, {health.games:,} games, "
            f"{health.files:,} files"
        )
    return EXIT_OK if health.healthy else EXIT_BAD_INPUT
