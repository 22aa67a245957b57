"""`kingdoms dashboard`: run the Streamlit app as a program (never imported: the data layer does
not depend on the dashboard) on a lake, which reaches it through KINGDOMS_LAKE.

It listens on this machine only (127.0.0.1) unless `--host` shares it; a shared dashboard is
read-only (KINGDOMS_DASHBOARD_SHARED) but for the writers `--writers` names, who sign in with
Streamlit's OpenID Connect log-in (docs/sharing.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from engine.cli_support import BadInput, whole_number

NAME = "dashboard"
HELP = "Start the dashboard (Streamlit) on a lake: overview, heatmaps, tile impact, balance, SQL."

APP = Path(__file__).resolve().parents[2] / "dashboard" / "streamlit_app.py"
DEFAULT_PORT = 8501
LOOPBACK = "127.0.0.1"
# read by dashboard/access.py
SHARED = "KINGDOMS_DASHBOARD_SHARED"
WRITERS = "KINGDOMS_DASHBOARD_WRITERS"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lake", help="lake folder (default: $KINGDOMS_LAKE or data/lake)")
    parser.add_argument(
        "--port", type=whole_number, default=DEFAULT_PORT, help="HTTP port (default 8501)"
    )
    parser.add_argument(
        "--host",
        default=LOOPBACK,
        metavar="ADDRESS",
        help="address to listen on (default 127.0.0.1: this machine only); another address, "
        "e.g. 0.0.0.0 for every interface, shares the dashboard read-only",
    )
    parser.add_argument(
        "--writers",
        type=email_list,
        default=(),
        metavar="EMAIL,…",
        help="on a shared dashboard, who may add games (Save, Import) once signed in with the "
        "OpenID Connect provider of .streamlit/secrets.toml (see docs/sharing.md)",
    )


def email_list(text: str) -> tuple[str, ...]:
    """An argparse type: comma-separated e-mail addresses, lower-cased."""
    emails = tuple(part.strip().lower() for part in text.split(",") if part.strip())
    for email in emails:
        name, at, domain = email.partition("@")
        if not (name and at and domain) or "@" in domain or any(c.isspace() for c in email):
            raise argparse.ArgumentTypeError(f"'{email}' is not an e-mail address")
    if not emails:
        raise argparse.ArgumentTypeError("no e-mail address given")
    return emails


def is_loopback(host: str) -> bool:
    """Whether every address `host` stands for is this machine's loopback."""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise BadInput(f"--host: '{host}' is not an address this machine can listen on") from None
    return all(ipaddress.ip_address(info[4][0]).is_loopback for info in found)


def streamlit_command(port: int, host: str = LOOPBACK) -> list[str]:
    """The command line that serves the app headless on `host`:`port`."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.address",
        host,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]


def sharing_environment(host: str, writers: tuple[str, ...]) -> dict[str, str]:
    """What the app is told of its sharing: shared or not, and who may write when it is."""
    shared = not is_loopback(host)
    if writers and not shared:
        raise BadInput("--writers: only a shared dashboard (--host ADDRESS) limits who may write")
    if writers and importlib.util.find_spec("authlib") is None:
        raise BadInput(
            "--writers: signing in needs Authlib (pip install 'Authlib>=1.3.2'); "
            "see docs/sharing.md"
        )
    return {SHARED: "1" if shared else "0", WRITERS: ",".join(writers)}


def run(args: argparse.Namespace) -> int:
    if not APP.exists():
        raise BadInput(f"the dashboard is not installed here ({APP} is missing)")
    if not 0 < args.port < 65536:
        raise BadInput(f"--port: {args.port} is not a TCP port")
    sharing = sharing_environment(args.host, args.writers)
    from data.lake import lake_path

    lake = lake_path(args.lake).resolve()
    shown = f"[{args.host}]" if ":" in args.host else args.host
    if sharing[SHARED] == "0":
        mode = "this machine only"
    elif args.writers:
        mode = f"shared; {len(args.writers)} writer(s) may add games once signed in"
    else:
        mode = "shared read-only"
    print(f"kingdoms: dashboard on http://{shown}:{args.port} ({mode}; lake {lake})", flush=True)
    environment = {**os.environ, "KINGDOMS_LAKE": str(lake), **sharing}
    server = subprocess.Popen(streamlit_command(args.port, args.host), env=environment)
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())
    try:
        return server.wait()
    except KeyboardInterrupt:
        server.terminate()
        server.wait()
        return 0
