"""The `kingdoms` command: the subcommands each layer offers, and the one place errors become
messages and exit codes. Start-up stays short: commands import heavy libraries when they run."""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType
from typing import NoReturn

from data.commands import (
    bench,
    corpus,
    dashboard,
    export,
    import_,
    lake,
    query,
    ratings,
    review,
    simulate,
    tournament,
)
from engine.cli_support import EXIT_BAD_INPUT, EXIT_FAILURE, BadInput, fail_bad_input
from engine.commands import replay, score

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C
# The library's errors about what it was given, reported like bad input: (module, class).
DOMAIN_ERRORS = (
    ("data.lake", "LakeError"),
    ("data.simulate", "PlanError"),
    ("data.corpus", "CorpusError"),
)

COMMANDS: tuple[ModuleType, ...] = (
    score,
    replay,
    review,
    tournament,
    bench,
    simulate,
    import_,
    export,
    corpus,
    query,
    ratings,
    lake,
    dashboard,
)


class _Parser(argparse.ArgumentParser):
    """Bad arguments in one line on stderr and exit 2, like every other bad input."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see --help)\n")


def build_parser(command_name: str | None = None) -> argparse.ArgumentParser:
    """Every subcommand with its help; their options too, or only `command_name`'s if named
    (a command's options may need its modules: the simulator's batch size, say)."""
    parser = _Parser(
        prog="kingdoms",
        description="Kingdoms Analytics: rules engine, agents, game lake and dashboard.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        sub = subparsers.add_parser(
            command.NAME, help=command.HELP.replace("%", "%%"), description=command.HELP
        )
        if command_name in (None, command.NAME):
            command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    named = next((word for word in argv if not word.startswith("-")), "")
    try:
        args = build_parser(named).parse_args(argv)
    except SystemExit as stop:  # --help, or bad arguments already said in one line
        return int(stop.code or 0)
    try:
        status = args.run(args)
        sys.stdout.flush()
        return status
    except BadInput as error:
        return fail_bad_input(str(error))
    except Exception as error:
        if not _is_domain_error(error):
            raise
        return fail_bad_input(str(error))
    except KeyboardInterrupt as stop:  # Ctrl-C: one line, no traceback
        said = f" ({stop})" if str(stop) else ""
        print(f"kingdoms: interrupted{said}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`kingdoms … | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILURE


def _is_domain_error(error: Exception) -> bool:
    """Whether `error` is one of DOMAIN_ERRORS (a module never imported raised none of its own)."""
    return any(
        isinstance(error, getattr(sys.modules[module], name))
        for module, name in DOMAIN_ERRORS
        if module in sys.modules
    )


if __name__ == "__main__":
    sys.exit(main())
