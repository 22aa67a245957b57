"""Ctrl-C, killed writers and a full disk: one line and no traceback, whole batches kept,
workers gone with their parent, and staging left by a dead writer swept by the next commit (not
a live one's)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from data.cli import main
from data.lake import STAGING, Lake
from data.lake_check import check_lake
from data.lake_repair import repair_lake
from data.simulate import SOURCE, Plan, plan_games, simulate
from data.store import store_games

ROOT = Path(__file__).resolve().parents[2]
KINGDOMS = str(Path(sys.executable).parent / "kingdoms")  # the installed command


def _ctrl_c_as_in_a_terminal() -> None:
    """In a child before it runs: Ctrl-C as a terminal's foreground command has it, whatever
    this test inherited (a shell's background job starts with Ctrl-C ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _simulation(lake_dir: Path) -> subprocess.Popen:
    """A long simulation on two workers, in its own process group (as a shell's job)."""
    command = [sys.executable, "-m", "data.cli", "simulate", "--games", "100000"]
    command += ["--batch-size", "100", "--workers", "2", "--seed", "3", "--lake", str(lake_dir)]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )


def _wait_for_batches(lake: Lake, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(lake.batches()) < count:
        assert time.monotonic() < deadline, "no batch committed in time"
        time.sleep(0.1)


def _gone(pid: int) -> bool:
    """Whether a process has ended (reaped, or a zombie awaiting its reaper)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except (FileNotFoundError, ProcessLookupError):
        return True


@pytest.mark.slow
def test_ctrl_c_says_one_line_and_keeps_the_finished_batches(tmp_path):
    lake = Lake(tmp_path / "lake")
    process = _simulation(lake.root)
    _wait_for_batches(lake, 1)
    os.killpg(process.pid, signal.SIGINT)  # what a terminal does: the whole group gets it
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    kept = re.fullmatch(r"kingdoms: interrupted \(kept the ([\d,]+) games of .*\)\n", err)
    assert kept, err
    assert int(kept.group(1).replace(",", "")) == sum(b.games for b in lake.batches())
    assert all(b.games == 100 for b in lake.batches())
    assert list((lake.root / STAGING).iterdir()) == []
    assert check_lake(lake).healthy


@pytest.mark.slow
def test_workers_die_quietly_with_a_killed_parent(tmp_path):
    lake = Lake(tmp_path / "lake")
    process = _simulation(lake.root)
    _wait_for_batches(lake, 1)
    workers = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    assert len(workers) == 2
    process.kill()
    _, err = process.communicate(timeout=60)  # EOF: every process holding the pipe is gone
    assert "Traceback" not in err and "Error" not in err, err
    deadline = time.monotonic() + 10  # a worker told to stop may still be exiting
    while not all(_gone(int(pid)) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived its parent"
        time.sleep(0.05)
    # killed inside a commit, the batch moved in but not listed: damage until repaired
    assert all("does not list" in damage.problem for damage in check_lake(lake).damage)
    repair_lake(lake)
    # the next commit sweeps the staging
    store_games(lake, plan_games(Plan(1, seed=99), 0, 1), SOURCE)
    assert list((lake.root / STAGING).iterdir()) == []
    assert check_lake(lake).healthy


WRITER = textwrap.dedent(
    """
    import sys, time
    from data.lake import Lake
    lake = Lake(sys.argv[1])
    with lake.staging_run() as run:
        (lake.staging_area(run) / "games.parquet").write_bytes(b"half a batch")
        print(run, flush=True)
        time.sleep(600)
    """
)


def _writer_staging(lake: Lake) -> tuple[subprocess.Popen, Path]:
    """A real writer process that has staged a file and waits; its staging area."""
    process = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(lake.root)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    return process, lake.staging_area(process.stdout.readline().strip())


def test_a_dead_writers_staging_is_swept_and_a_live_ones_kept(tmp_path):
    lake = Lake(tmp_path)
    dead, dead_area = _writer_staging(lake)
    live, live_area = _writer_staging(lake)
    old_area = lake.root / STAGING / "left-by-an-older-writer"  # no owner file at all
    old_area.mkdir()
    (old_area / "moves.parquet").write_bytes(b"x")
    dead.kill()
    dead.wait()
    try:
        assert dead_area.exists()  # nothing sweeps until a writer commits
        store_games(lake, plan_games(Plan(1, seed=98), 0, 1), SOURCE)
        assert not dead_area.exists() and not old_area.exists()
        assert (live_area / "games.parquet").exists()
    finally:
        live.kill()
        live.wait()
    store_games(lake, plan_games(Plan(1, seed=97), 0, 1), SOURCE)
    assert list((lake.root / STAGING).iterdir()) == []


def test_ctrl_c_as_a_batch_is_committed_still_counts_it(tmp_path, monkeypatch):
    """The interrupt lands just as the commit returns (as it may from a terminal): the batch
    is in the lake, and the message counts it."""
    commit = Lake.commit

    def commit_then_ctrl_c(lake: Lake, staging: Path, source: str, derive):
        batch = commit(lake, staging, source, derive)
        os.kill(os.getpid(), signal.SIGINT)
        return batch

    monkeypatch.setattr(Lake, "commit", commit_then_ctrl_c)
    lake = Lake(tmp_path)
    with pytest.raises(KeyboardInterrupt, match="kept the 6 games"):
        simulate(lake, Plan(12, seed=1, batch_size=6), progress=False)
    assert [b.games for b in lake.batches()] == [6]
    assert list((lake.root / STAGING).iterdir()) == []


# Seconds after the start when Ctrl-C comes: the interpreter's own start-up, the commands
# loading (the lake's libraries among them), the simulation.
START_UP_DELAYS = (0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.1, 1.5)
CLI_SOURCE = ROOT / "data" / "cli.py"


def _before_the_program(err: str) -> bool:
    """Whether a traceback is of a Ctrl-C that came before the program could catch it: in
    Python's own start-up (no line of the program in it), or in data/cli.py's first lines,
    up to the one that sets its handler."""
    handler_set = next(
        number
        for number, line in enumerate(CLI_SOURCE.read_text().splitlines(), start=1)
        if "signal.signal(signal.SIGINT, _interrupted_while_loading)" in line
    )
    lines = [line.strip() for line in err.splitlines()]
    ours = [
        line for line in lines if line.startswith((f'File "{ROOT}/data', f'File "{ROOT}/engine'))
    ]
    cli_line = re.compile(rf'File "{re.escape(str(CLI_SOURCE))}", line (\d+), in <module>')
    return all(
        (found := cli_line.fullmatch(line)) and int(found.group(1)) <= handler_set for line in ours
    )


@pytest.mark.slow
def test_ctrl_c_at_any_moment_of_start_up_is_one_line(tmp_path):
    handled = 0
    for delay in START_UP_DELAYS:
        command = [KINGDOMS, "simulate", "--games", "100000", "--workers", "1"]
        process = subprocess.Popen(
            [*command, "--lake", str(tmp_path / f"lake-{delay}")],
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_ctrl_c_as_in_a_terminal,
        )
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
        if err.startswith("kingdoms: interrupted"):
            assert re.fullmatch(r"kingdoms: interrupted( \(.*\))?\n", err), err
            assert process.returncode == 130
            handled += 1
        else:  # Python itself was still starting
            assert process.returncode in (1, -signal.SIGINT), err
            assert _before_the_program(err), err
    assert handled >= len(START_UP_DELAYS) // 2  # most land in the program, which says one line


HOLD_US = 5_000_000  # how long strace holds Python's check of the script, in microseconds


def _can_trace() -> bool:
    """Whether strace is here and may trace (a container may forbid it)."""
    if shutil.which("strace") is None:
        return False
    traced = subprocess.run(["strace", "-o", os.devnull, "true"], capture_output=True, check=False)
    return traced.returncode == 0


def _held_by_the_tracer(tracer: subprocess.Popen) -> int:
    """The traced command's process id once it has stayed stopped by its tracer for a quarter
    of a second: held in the system call strace delays (any other stops for microseconds)."""
    deadline = time.monotonic() + HOLD_US / 2e6
    stopped_since: dict[int, float] = {}
    while time.monotonic() < deadline:
        children = Path(f"/proc/{tracer.pid}/task/{tracer.pid}/children").read_text().split()
        for pid in map(int, children):
            try:
                state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
            except (FileNotFoundError, ProcessLookupError):
                continue
            if state != "t":
                stopped_since.pop(pid, None)
            elif time.monotonic() - stopped_since.setdefault(pid, time.monotonic()) > 0.25:
                return pid
        time.sleep(0.02)
    raise AssertionError("the command was never held in Python's check of the script")


@pytest.mark.slow
def test_ctrl_c_as_python_checks_the_script_ends_the_run(tmp_path):
    """Python's start-up prints a Ctrl-C that lands as it checks whether the script is an
    archive (the script's first opening) and then runs the script all the same; the command
    ends there, as Python ends on a Ctrl-C it does not catch, and simulates nothing. strace
    holds that opening so the Ctrl-C lands in it every time."""
    if not _can_trace():
        pytest.skip("strace is missing or may not trace here")
    lake = tmp_path / "lake"
    strace = ["strace", "--seccomp-bpf", "-f", "-o", os.devnull, "-e", "trace=openat"]
    strace += ["-P", KINGDOMS, "-e", f"inject=openat:delay_exit={HOLD_US}:when=1"]
    command = [KINGDOMS, "simulate", "--games", "1000", "--workers", "1", "--lake", str(lake)]
    tracer = subprocess.Popen(
        [*strace, *command], stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_as_in_a_terminal
    )
    os.kill(_held_by_the_tracer(tracer), signal.SIGINT)
    _, err = tracer.communicate(timeout=120)
    assert err.startswith("Failed checking if argv[0] is an import path entry\n"), err
    assert err.endswith("\nKeyboardInterrupt\n"), err  # Python's print of it, nothing after
    assert tracer.returncode == -signal.SIGINT  # strace ends as the command did
    assert not lake.exists()


@contextmanager
def _small_filesystem(folder: Path, options: str) -> Iterator[Path]:
    """A real tmpfs mounted on `folder` for the test (root only), unmounted afterwards."""
    folder.mkdir(exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (root only): {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_full_disk_is_one_line_and_exit_1(tmp_path, capsys):
    with _small_filesystem(tmp_path / "small", "size=1m") as small:
        lake = small / "lake"
        arguments = ["simulate", "--games", "3000", "--workers", "1", "--seed", "2"]
        assert main([*arguments, "--lake", str(lake)]) == 1
    assert capsys.readouterr().err == f"{lake}: No space left on device\n"


def test_a_read_only_file_system_under_the_lake_is_one_line_and_exit_2(tmp_path, capsys):
    """A lake writable at its top, its staging area a read-only file system: the path where
    the write was refused, in one line."""
    lake = Lake(tmp_path / "lake")
    store_games(lake, plan_games(Plan(1, seed=96), 0, 1), SOURCE)
    staging = lake.root / STAGING
    with _small_filesystem(staging, "size=1m,ro"):
        arguments = ["simulate", "--games", "4", "--workers", "1", "--seed", "5"]
        assert main([*arguments, "--lake", str(lake.root)]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(rf"{staging}/\w+: Read-only file system\n", err), err
