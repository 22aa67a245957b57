"""Who may write through the dashboard: anyone on a loopback-only dashboard; on a shared one,
nobody unless writers are configured."""

from __future__ import annotations

import os

SHARED = "KINGDOMS_DASHBOARD_SHARED"  # set by `kingdoms dashboard --host` to a non-loopback address


def writes_allowed() -> bool:
    """Whether this session may add games to the lake (Save, Import)."""
    return os.environ.get(SHARED) != "1"
