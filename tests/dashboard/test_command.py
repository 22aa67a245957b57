"""`kingdoms dashboard`: its arguments, the program it starts, and the address the real server
listens on (read from its socket): this machine only unless `--host` shares it."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from data.cli import build_parser
from data.commands import dashboard
from engine.cli_support import BadInput

ROOT = Path(__file__).resolve().parents[2]


def test_dashboard_subcommand_takes_lake_port_host_and_writers():
    args = build_parser().parse_args(
        ["dashboard", "--lake", "/tmp/somewhere", "--port", "9001", "--host", "0.0.0.0"]
        + ["--writers", "Ann@Example.com, bob@example.org"]
    )
    assert args.lake == "/tmp/somewhere" and args.port == 9001 and args.host == "0.0.0.0"
    assert args.writers == ("ann@example.com", "bob@example.org")
    assert args.run is dashboard.run
    defaults = build_parser().parse_args(["dashboard"])
    assert defaults.host == "127.0.0.1" and defaults.writers == ()


@pytest.mark.parametrize("writers", ["ann", "ann@", "@example.com", "a b@example.com", ","])
def test_writers_must_be_email_addresses(writers, capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["dashboard", "--writers", writers])
    assert stop.value.code == 2 and "--writers" in capsys.readouterr().err


def test_dashboard_runs_streamlit_as_a_program_headless_on_this_machine_only():
    command = dashboard.streamlit_command(9001)
    assert command[:4] == [sys.executable, "-m", "streamlit", "run"]
    assert command[4].endswith("dashboard/streamlit_app.py")
    assert command[command.index("--server.port") + 1] == "9001"
    assert command[command.index("--server.headless") + 1] == "true"
    assert command[command.index("--server.address") + 1] == "127.0.0.1"


@pytest.mark.parametrize(
    "host, shared",
    [("127.0.0.1", "0"), ("localhost", "0"), ("::1", "0"), ("0.0.0.0", "1"), ("::", "1")],
)
def test_a_dashboard_beyond_loopback_is_shared(host, shared):
    assert dashboard.sharing_environment(host, ()) == {
        dashboard.SHARED: shared,
        dashboard.WRITERS: "",
    }


def test_writers_need_a_shared_dashboard_and_authlib():
    with pytest.raises(BadInput, match="only a shared dashboard"):
        dashboard.sharing_environment("127.0.0.1", ("ann@example.com",))
    if importlib.util.find_spec("authlib") is None:
        with pytest.raises(BadInput, match="Authlib"):
            dashboard.sharing_environment("0.0.0.0", ("ann@example.com",))
    else:
        shared = dashboard.sharing_environment("0.0.0.0", ("ann@example.com",))
        assert shared[dashboard.WRITERS] == "ann@example.com"


def test_an_unknown_host_is_one_line():
    with pytest.raises(BadInput, match="--host: 'no-such-host.invalid'"):
        dashboard.sharing_environment("no-such-host.invalid", ())


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _listening(command: subprocess.Popen, port: int) -> tuple[str, dict[str, str]]:
    """The address the command's server listens on at `port`, and that server's environment."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        assert command.poll() is None, command.stderr.read() if command.stderr else ""
        for process in psutil.Process(command.pid).children(recursive=True):
            for connection in process.net_connections(kind="inet"):
                if connection.status == psutil.CONN_LISTEN and connection.laddr.port == port:
                    return connection.laddr.ip, process.environ()
        time.sleep(0.5)
    raise AssertionError(f"nothing listens on port {port}")


@pytest.mark.slow
@pytest.mark.parametrize(
    "options, address, shared", [((), "127.0.0.1", "0"), (("--host", "0.0.0.0"), "0.0.0.0", "1")]
)
def test_the_server_listens_on_loopback_unless_a_host_is_given(lake, options, address, shared):
    port = _free_port()
    command = subprocess.Popen(
        [sys.executable, "-m", "data.cli", "dashboard", "--lake", str(lake.root)]
        + ["--port", str(port), *options],
        env={**os.environ, "PYTHONPATH": str(ROOT), dashboard.SHARED: "0"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        listening, environment = _listening(command, port)
    finally:
        command.send_signal(signal.SIGTERM)
        command.wait(timeout=30)
    assert listening == address
    assert environment[dashboard.SHARED] == shared
    assert environment["KINGDOMS_LAKE"] == str(lake.root.resolve())
