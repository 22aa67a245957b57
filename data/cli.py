"""The `kingdoms` command: the subcommands each layer offers, and the one place errors become
messages and exit codes. Start-up stays short: commands import heavy libraries when they run.
A Ctrl-C while the commands load is caught by a handler set before they are imported (one
line, 130); once `main` runs, by `main`; one that Python's start-up printed but let pass ends the
run before anything loads."""

# ruff: noqa: E402 - the imports come after the handler that covers them

from __future__ import annotations

import os
import signal
import sys

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C


def _interrupted_while_loading(signum: int, frame: object) -> None:
    """Ctrl-C while this module loads, before `main` can catch it: its one line, and 130 at
    once (an exception raised there could be wrapped in another: in a class being built)."""
    sys.stderr.write("kingdoms: interrupted\n")
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)


def _in_main_thread() -> bool:
    """Whether this is the main thread, the only one that may set a signal's handler."""
    threading = sys.modules.get("threading")  # not loaded: no thread was started
    return threading is None or threading.current_thread() is threading.main_thread()


def _ctrl_c_let_pass_by_start_up() -> bool:
    """Whether Python's start-up printed a Ctrl-C and ran the script all the same, as it does
    for one landing while it checks whether the script is an archive ("Failed checking if
    argv[0] is an import path entry"). Its traceback holds no frame of `__main__`, unlike one
    shown at an interactive prompt, which `sys.last_value` also keeps."""
    stop = getattr(sys, "last_value", None)
    if not isinstance(stop, KeyboardInterrupt):
        return False
    prompt = vars(sys.modules["__main__"])
    entry = stop.__traceback__
    while entry is not None and entry.tb_frame.f_globals is not prompt:
        entry = entry.tb_next
    return entry is None


if _ctrl_c_let_pass_by_start_up():  # end as Python ends on a Ctrl-C it does not catch
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)

# Python's handler of Ctrl-C, replaced while the commands load (not where Ctrl-C is ignored).
_CTRL_C = signal.getsignal(signal.SIGINT)
if _CTRL_C is signal.default_int_handler and _in_main_thread():
    signal.signal(signal.SIGINT, _interrupted_while_loading)

import _thread
import argparse
import errno
import json
import threading
import traceback
from pathlib import Path
from types import ModuleType
from typing import NoReturn

from engine.startup import interpret_kernel_for

if __name__ == "__main__" or Path(sys.argv[0]).name == "kingdoms":  # the program, not an import
    interpret_kernel_for(sys.argv[1:])  # before the engine loads

from data.commands import (
    apprentice,
    bench,
    compare,
    corpus,
    dashboard,
    export,
    import_,
    insights,
    lake,
    query,
    ratings,
    review,
    simulate,
    tournament,
)
from engine.cli_support import EXIT_BAD_INPUT, EXIT_FAILURE
from engine.commands import replay, score

AGAIN_AFTER = 0.01  # seconds before a Ctrl-C a C library's callback swallowed is raised again
# The library's errors about what it was given, reported like bad input: (module, class).
DOMAIN_ERRORS = (
    ("engine.cli_support", "BadInput"),
    ("data.lake", "LakeError"),
    ("data.simulate", "PlanError"),
    ("data.reader", "QueryError"),
    ("data.corpus", "CorpusError"),
    ("engine.kernel.apprentice", "WeightsError"),
)
# The system refusing a path the command was given: exit 2, like any path it cannot use.
REFUSED = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
# The disk or quota full: exit 1, since nothing was wrong with the input (the same command
# succeeds once there is room, and a writer keeps the batches it committed before).
NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT})

COMMANDS: tuple[ModuleType, ...] = (
    score,
    replay,
    review,
    tournament,
    bench,
    simulate,
    compare,
    apprentice,
    import_,
    export,
    corpus,
    query,
    ratings,
    insights,
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
    """Run one command. Bad input, a damaged lake or a path the system refuses is one line on
    stderr and exit 2, a full disk one line and 1, Ctrl-C one line and 130; any other error is
    a bug, and its traceback is shown."""
    args = argparse.Namespace()
    ctrl_c = _CtrlC()
    try:
        ctrl_c.watch()
        argv = sys.argv[1:] if argv is None else argv
        named = next((word for word in argv if not word.startswith("-")), "")
        try:
            args = build_parser(named).parse_args(argv)
        except SystemExit as stop:  # --help, or bad arguments already said in one line
            return int(stop.code or 0)
        status = args.run(args)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt as stop:  # Ctrl-C: one line, no traceback
        return _interrupted(str(stop))
    except BrokenPipeError:
        # The reader went away (`kingdoms … | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILURE
    except Exception as error:
        if ctrl_c.seen:  # a library turned the Ctrl-C into an error of its own
            return _interrupted("")
        failure = _failure(error, args)
        if failure is None:
            raise
        message, status = failure
        print(message, file=sys.stderr)
        return status
    finally:
        ctrl_c.unwatch()


def _interrupted(said: str) -> int:
    print(f"kingdoms: interrupted{f' ({said})' if said else ''}", file=sys.stderr)
    return EXIT_INTERRUPTED


class _CtrlC:
    """Ctrl-C during a command, raised as Python raises it (a KeyboardInterrupt) but
    remembered, as a library may turn it into an error of its own (a class being built, a
    DuckDB query 'interrupted'); raised again when a C library's callback swallowed it."""

    def __init__(self) -> None:
        self.seen = False
        self._installed = False
        self._hook = sys.unraisablehook
        self._again: list[threading.Timer] = []

    def watch(self) -> None:
        """Take Ctrl-C over from Python's handler (not where Ctrl-C is ignored)."""
        handler = signal.getsignal(signal.SIGINT)
        self._installed = handler is signal.default_int_handler and _in_main_thread()
        if self._installed:
            signal.signal(signal.SIGINT, self._on_ctrl_c)
        self._hook, sys.unraisablehook = sys.unraisablehook, self._on_unraisable

    def unwatch(self) -> None:
        for again in self._again:
            again.cancel()
        sys.unraisablehook = self._hook
        if self._installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)

    def _on_ctrl_c(self, signum: int, frame: object) -> None:
        self.seen = True
        raise KeyboardInterrupt

    def _on_unraisable(self, unraisable: sys.UnraisableHookArgs) -> None:
        if issubclass(unraisable.exc_type, KeyboardInterrupt):
            # raised again once the callback is over: from inside it, it would be swallowed again
            self._again.append(threading.Timer(AGAIN_AFTER, _thread.interrupt_main))
            self._again[-1].start()
        else:
            self._hook(unraisable)


def _failure(error: Exception, args: argparse.Namespace) -> tuple[str, int] | None:
    """The one line and exit status for an error of what the command was given or of the
    system under it; None for any other error."""
    text = str(error).strip()
    said = text.splitlines()[0] if text else type(error).__name__
    if _is_domain_error(error):
        return said, EXIT_BAD_INPUT
    if isinstance(error, OSError) and error.errno in REFUSED | NO_ROOM:
        where = error.filename or _lake(args) or "kingdoms"
        status = EXIT_FAILURE if error.errno in NO_ROOM else EXIT_BAD_INPUT
        return f"{where}: {error.strerror}", status
    if _undecodable(error):
        lake = _lake(args)
        if lake is None:
            return f"kingdoms: a file cannot be read ({said})", EXIT_BAD_INPUT
        hint = "`kingdoms lake check` lists every damaged file"
        return f"{lake}: a file of the lake cannot be read ({said}); {hint}", EXIT_BAD_INPUT
    return None


def _is_domain_error(error: Exception) -> bool:
    """Whether `error` is one of DOMAIN_ERRORS (a module never imported raised none of its own)."""
    return any(
        isinstance(error, getattr(sys.modules[module], name))
        for module, name in DOMAIN_ERRORS
        if module in sys.modules
    )


def _undecodable(error: Exception) -> bool:
    """Whether `error` is a decoder giving up on a file's contents: a file that ends early, or
    JSON nested too deeply or with a number too long for Python (a RecursionError or a
    ValueError raised inside the json module: the commands read JSON only from files)."""
    if isinstance(error, EOFError):
        return True
    frames = traceback.extract_tb(error.__traceback__)
    json_folder = Path(json.__file__).parent
    return (
        isinstance(error, RecursionError | ValueError)
        and bool(frames)
        and Path(frames[-1].filename).parent == json_folder
    )


def _lake(args: argparse.Namespace) -> str | None:
    """The lake the command works on (an error that names no file happened there), if any."""
    if "lake" not in vars(args) or "data.lake" not in sys.modules:
        return None
    return str(sys.modules["data.lake"].lake_path(args.lake).resolve())


if signal.getsignal(signal.SIGINT) is _interrupted_while_loading:
    signal.signal(signal.SIGINT, _CTRL_C)  # loaded: `main` catches Ctrl-C from here on

if __name__ == "__main__":
    sys.exit(main())
