"""`kingdoms dashboard`: run the Streamlit app as a program (never imported: the data layer does
not depend on the dashboard) on a lake, which reaches it through KINGDOMS_LAKE."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

from engine.cli_support import BadInput, whole_number

NAME = "dashboard"
HELP = "Start the dashboard (Streamlit) on a lake: overview, heatmaps, tile impact, balance, SQL."

APP = Path(__file__).resolve().parents[2] / "dashboard" / "streamlit_app.py"
DEFAULT_PORT = 8501


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lake", help="lake folder (default: $KINGDOMS_LAKE or data/lake)")
    parser.add_argument(
        "--port", type=whole_number, default=DEFAULT_PORT, help="HTTP port (default 8501)"
    )


def streamlit_command(port: int) -> list[str]:
    """The command line that serves the app headless on `port`."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]


def run(args: argparse.Namespace) -> int:
    if not APP.exists():
        raise BadInput(f"the dashboard is not installed here ({APP} is missing)")
    if not 0 < args.port < 65536:
        raise BadInput(f"--port: {args.port} is not a TCP port")
    from data.lake import lake_path

    lake = lake_path(args.lake).resolve()
    print(f"kingdoms: dashboard on http://localhost:{args.port} (lake {lake})", flush=True)
    environment = {**os.environ, "KINGDOMS_LAKE": str(lake)}
    server = subprocess.Popen(streamlit_command(args.port), env=environment)
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())
    try:
        return server.wait()
    except KeyboardInterrupt:
        server.terminate()
        server.wait()
        return 0
