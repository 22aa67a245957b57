"""`kingdoms dashboard`: its arguments and the program it starts."""

from __future__ import annotations

import sys

from data.cli import build_parser
from data.commands import dashboard


def test_dashboard_subcommand_takes_lake_and_port():
    args = build_parser().parse_args(["dashboard", "--lake", "/tmp/somewhere", "--port", "9001"])
    assert args.lake == "/tmp/somewhere" and args.port == 9001
    assert args.run is dashboard.run


def test_dashboard_runs_streamlit_as_a_program_headless():
    command = dashboard.streamlit_command(9001)
    assert command[:4] == [sys.executable, "-m", "streamlit", "run"]
    assert command[4].endswith("dashboard/streamlit_app.py")
    assert command[command.index("--server.port") + 1] == "9001"
    assert command[command.index("--server.headless") + 1] == "true"
