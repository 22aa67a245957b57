"""`kingdoms compare`: two rule sets' games played into the lake (or found there), their figures
compared, and the comparison written as one self-contained HTML report."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from data.commands.lake_options import add_lake_argument, open_lake_for_writing, queried
from engine.cli_support import (
    EXIT_OK,
    BadInput,
    load_rules_file,
    player_count,
    whole_number,
    workers_count,
)
from engine.rules import RulesError

if TYPE_CHECKING:
    from data.compare import Comparison
    from engine.rules import RuleSet

NAME = "compare"
HELP = (
    "Compare two rule sets: play each one's games into the lake (a rerun reuses them), then "
    "write every Balance figure and design measure of both, each difference with its 95% "
    "interval and a verdict, as one self-contained HTML report."
)
MAX_GAMES = 10**7


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from data.compare import DEFAULT_AGENTS, DEFAULT_GAMES, SKILL_BUDGETS, SKILL_GAMES

    parser.add_argument(
        "--rules",
        action="append",
        required=True,
        metavar="FILE.toml|EDITION[+VARIANT…]",
        help="a rule set, given twice (A, then B): a rule-set file, or a shipped edition with "
        "its variants, e.g. kingdoms-2011 or kingdoms-2011+no-luck",
    )
    parser.add_argument(
        "--players",
        type=player_count,
        help="one player count (default: each of 2, 3 and 4, cycled over the games)",
    )
    parser.add_argument(
        "--games",
        type=whole_number,
        default=DEFAULT_GAMES,
        help=f"games per rule set (default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--agents",
        default=",".join(DEFAULT_AGENTS),
        help="agents, rotated over the seats: random, greedy, heuristic, apprentice, strong, the "
        "weakest deciding the play level compared (default heuristic: the fastest agent at "
        "least as strong as the heuristic)",
    )
    parser.add_argument(
        "--seed", type=whole_number, default=0, help="the same seed gives the same games"
    )
    parser.add_argument(
        "--skill-games",
        type=whole_number,
        default=SKILL_GAMES,
        help="games a rung of skill depth's ladder (the search at "
        f"{'/'.join(map(str, SKILL_BUDGETS))} iterations a move against half that) at each "
        f"player count (default {SKILL_GAMES}; 0: none)",
    )
    parser.add_argument(
        "--workers", default="auto", help="processes playing the games (default: all cores)"
    )
    parser.add_argument("--out", required=True, metavar="REPORT.html", help="the report to write")
    add_lake_argument(parser)


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from data.compare import compare, table_level
    from data.report import report_html

    if len(args.rules) != 2:
        raise BadInput(f"--rules: give exactly two rule sets (A and B), not {len(args.rules)}")
    a, b = (_rules(text) for text in args.rules)
    if a == b:
        raise BadInput("--rules: the two rule sets are the same: nothing to compare")
    if not 1 <= args.games <= MAX_GAMES:
        raise BadInput(f"--games: must be from 1 to {MAX_GAMES:,}, not {args.games}")
    if not 0 <= args.skill_games <= MAX_GAMES:
        raise BadInput(f"--skill-games: must be from 0 to {MAX_GAMES:,}, not {args.skill_games}")
    agents = tuple(name.strip() for name in args.agents.split(",") if name.strip())
    table_level(agents)
    workers = workers_count(args.workers)
    out = _writable_report(args.out)
    lake = open_lake_for_writing(args)
    bar = tqdm(
        desc="games played, then measured",
        unit="game",
        disable=not sys.stderr.isatty(),
    )
    with bar, queried(lake):
        comparison = compare(
            a,
            b,
            lake,
            players=args.players,
            games=args.games,
            agents=agents,
            seed=args.seed,
            workers=workers,
            skill_games=args.skill_games,
            progress=lambda done, total: progress_to(bar, done, total),
        )
    _write_atomically(out, report_html(comparison, (args.rules[0], args.rules[1])))
    found = 2 * args.games - comparison.simulated
    print(
        f"played {comparison.simulated:,} games into {lake.root}, found {found:,} there; "
        f"wrote {out}",
        file=sys.stderr,
    )
    for line in verdict_lines(comparison):
        print(line)
    return EXIT_OK


def progress_to(bar, done: int, total: int) -> None:
    """Move the progress bar to `done` of `total` steps."""
    bar.total = total
    bar.update(done - bar.n)


def _rules(text: str) -> RuleSet:
    """A `--rules` value: a shipped edition (with `+variant`s) or a rule-set file."""
    from data.compare import shipped_rules

    try:
        shipped = shipped_rules(text)
    except RulesError as error:
        raise BadInput(f"--rules: {error}") from None
    return shipped or load_rules_file(text)


def _writable_report(text: str) -> Path:
    """The report's path, refused before any game is played if its folder is not there or it
    names a folder."""
    out = Path(text)
    if out.is_dir():
        raise BadInput(f"--out: {text} is a folder, not a file")
    if not out.parent.resolve().is_dir():
        raise BadInput(f"--out: no folder {out.parent} to write the report in")
    return out


def _write_atomically(out: Path, text: str) -> None:
    """Write `text` to a temporary file beside `out`, then rename it into place: a reader sees
    the old report or the whole new one."""
    handle, temporary = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(handle, 0o666 & ~umask)  # as an ordinary new file (mkstemp's is private)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def verdict_lines(comparison: Comparison) -> list[str]:
    """One line per verdict given: how many figures got it, the real differences named (by
    player count)."""
    import polars as pl

    from data.compare import REAL, VERDICTS

    figures = comparison.figures
    lines = []
    for verdict in VERDICTS:
        part = figures.filter(pl.col("verdict") == verdict)
        if part.is_empty():
            continue
        line = f"{verdict}: {part.height} of {figures.height} figures"
        if verdict == REAL:
            named = "; ".join(
                f"{players} players: {', '.join(group['figure'])}"
                for (players,), group in part.partition_by(
                    "players", as_dict=True, maintain_order=True
                ).items()
            )
            line += f" ({named})"
        lines.append(line)
    return lines
