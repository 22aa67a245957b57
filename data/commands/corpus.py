"""`kingdoms corpus`: the corpus of strong play kept in data/corpus/: build it from a lake,
verify it by playing games again, import it into a lake, say what it holds."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from data.commands.lake import suggest_compaction
from data.commands.lake_options import add_lake_argument, open_lake, open_lake_for_writing
from engine.cli_support import EXIT_OK, BadInput, whole_number

NAME = "corpus"
HELP = (
    "The corpus of strong play kept in data/corpus/: `build` it from a lake of simulated games, "
    "`verify` it by playing games again from their seeds, `import` it into a lake, `info`."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from data.corpus import CORPUS

    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser(
        "build",
        help="write the corpus of a lake's committed simulated games, with its header",
        description="Write the corpus of the committed simulated games of a lake made by "
        "`kingdoms simulate` (their seeds, player counts, rules, line-ups and actions), and "
        "its header: the agents' and engine's versions, the simulate commands, the make-time "
        "(from --started, else the first batch's commit, to the last batch's commit), the "
        "games of each part and the sha256 checked on every load.",
    )
    build.add_argument("--from-lake", required=True, metavar="LAKE", help="the lake to read")
    build.add_argument(
        "--out",
        type=Path,
        default=CORPUS,
        metavar="FILE",
        help=f"the games file (default {_shown(CORPUS)})",
    )
    build.add_argument(
        "--started",
        type=_moment,
        metavar="TIME",
        help="when the games' simulation began (ISO 8601, UTC unless a zone is given)",
    )
    build.add_argument(
        "--workers",
        type=whole_number,
        metavar="N",
        help="the processes that played them (for the core-time)",
    )
    build.add_argument(
        "--extends",
        type=Path,
        metavar="FILE",
        help="a corpus imported into the lake and played on: its record of how it was made is "
        "kept, and this run's is what the lake added",
    )
    verify = actions.add_parser(
        "verify",
        help="play a sample of the corpus's games again and confirm they come out identical "
        "(exit 2 naming the first that does not)",
        description="Play a sample of the corpus's games again from their seeds and line-ups, "
        "as `kingdoms simulate` played them, and confirm each comes out identical; the first "
        "that does not is named, exit 2. A strong game takes about 5 s.",
    )
    verify.add_argument(
        "--sample",
        type=whole_number,
        default=3,
        metavar="N",
        help="how many games (default 3; more: all)",
    )
    verify.add_argument(
        "--seed",
        type=whole_number,
        default=0,
        metavar="S",
        help="which games are sampled (default 0)",
    )
    _add_corpus_argument(verify, CORPUS)
    imported = actions.add_parser(
        "import",
        help="add the corpus's games to a lake as one simulated batch, every game replayed "
        "first (the default lake does this when it is built)",
        description="Check the corpus (hash, versions, every game replayed by the engine), "
        "then add the games the lake lacks as one simulated batch; a corpus refused leaves "
        "the lake as it was. The default lake imports it when it is built.",
    )
    _add_corpus_argument(imported, CORPUS)
    add_lake_argument(imported)
    info = actions.add_parser(
        "info",
        help="what the corpus holds: parts, games per player count and level, versions, size",
    )
    info.add_argument("--json", action="store_true", help="print one JSON object")
    _add_corpus_argument(info, CORPUS)


def _add_corpus_argument(parser: argparse.ArgumentParser, default: Path) -> None:
    parser.add_argument(
        "--corpus",
        type=Path,
        default=default,
        metavar="FILE",
        help=f"the corpus's games file, its header beside it (default {_shown(default)})",
    )


def _shown(path: Path) -> str:
    """A path relative to the working folder where it lies under it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an ISO 8601 time") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def run(args: argparse.Namespace) -> int:
    return {"build": _build, "verify": _verify, "import": _import, "info": _info}[args.action](args)


def _build(args: argparse.Namespace) -> int:
    from data.corpus import build_corpus, load_corpus

    if args.workers is not None and args.workers < 1:
        raise BadInput(f"--workers: must be at least 1, not {args.workers}")
    args.lake = args.from_lake
    extends = load_corpus(args.extends) if args.extends else None
    corpus = build_corpus(open_lake(args), args.out, args.started, args.workers, extends)
    print(
        f"wrote {corpus.games.num_rows:,} games in {len(corpus.parts)} parts to {corpus.path} "
        f"({corpus.size():,} bytes with its header)",
        file=sys.stderr,
    )
    return EXIT_OK


def _verify(args: argparse.Namespace) -> int:
    from data.corpus import load_corpus, verify_corpus

    if args.sample < 1:
        raise BadInput(f"--sample: must be at least 1, not {args.sample}")
    corpus = load_corpus(args.corpus)
    rows = verify_corpus(corpus, args.sample, args.seed)
    print(
        f"{corpus.path}: {len(rows)} of {corpus.games.num_rows:,} games played again came out "
        f"identical (games {', '.join(map(str, rows))})",
        file=sys.stderr,
    )
    return EXIT_OK


def _import(args: argparse.Namespace) -> int:
    from data.corpus import import_corpus, load_corpus

    corpus = load_corpus(args.corpus)
    lake = open_lake_for_writing(args)
    stored = import_corpus(lake, corpus)
    print(
        f"imported {stored.added:,} games of {corpus.path} into {lake.root}, "
        f"{stored.duplicates:,} already in the lake",
        file=sys.stderr,
    )
    suggest_compaction(args)
    return EXIT_OK


def _info(args: argparse.Namespace) -> int:
    from data.corpus import levels_by_players, load_corpus

    corpus = load_corpus(args.corpus)
    levels = levels_by_players(corpus).to_dicts()
    made = corpus.header["made"]
    if args.json:
        summary = {
            "file": str(corpus.path),
            "bytes": corpus.size(),
            "games": corpus.games.num_rows,
            "agents_version": corpus.header["agents_version"],
            "engine_version": corpus.header["engine_version"],
            "made": made,
            "built": corpus.header["built"],
            "parts": corpus.header["parts"],
            "games_by_players_and_level": levels,
            "sha256": corpus.header["sha256"],
        }
        print(json.dumps(summary, indent=1))
        return EXIT_OK
    games = corpus.games.num_rows
    print(f"{corpus.path}: {games:,} games, {corpus.size():,} bytes with its header")
    print(
        f"made by agents version {corpus.header['agents_version']}, engine "
        f"{corpus.header['engine_version']}; sha256 {corpus.header['sha256']}"
    )
    for run in made:
        took = f"{_duration(run['wall_s'])}" + (
            f" on {run['workers']} workers" if run["workers"] else ""
        )
        print(f"made from {run['started']} to {run['finished']}: {took}")
    for number, part in enumerate(corpus.parts):
        print(f"part {number}: {part.games:,} games: {part.command}")
    for row in levels:
        print(f"{row['players']} players, {row['level']} play: {row['games']:,} games")
    return EXIT_OK


def _duration(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    return f"{hours} h {rest // 60:02d} min" if hours else f"{rest // 60} min {rest % 60} s"
