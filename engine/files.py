"""Files a command is handed: anything but a regular file is named before it is opened (a pipe
with no writer blocks whoever opens it, and a device may never end)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

_SPECIAL_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def special_file_kind(path: str | Path) -> str | None:
    """What `path` names when it is not a regular file ('a pipe', 'a folder'…), else None; a
    missing path is the system's OSError."""
    mode = os.stat(path).st_mode
    return next((kind for is_kind, kind in _SPECIAL_KINDS if is_kind(mode)), None)
