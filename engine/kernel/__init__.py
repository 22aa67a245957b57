"""The compiled game kernel: the rules on flat arrays, compiled with numba; the fast path.

Its compiled code is cached on disk (under engine/kernel/__pycache__, or $KINGDOMS_KERNEL_CACHE)
in a folder named after a hash of the kernel's own source files (and the codec's, whose block
numbers it reads as constants): editing any of them compiles afresh instead of loading a
stale kernel. Everything else of the rules (board,
tiles, castles, gold, epochs, variants, piece codes) reaches the compiled code as data.

Every compiled function takes plain int64 arrays (a state, the rules). Small helpers (the slot
accessors, the random policy, the policy dispatch) are inlined into their callers, and hot
loops (applying an action, playing a game) are compiled without reference counting
(engine/kernel/compiled.py): a counted call updates the count of every array it is passed,
which costs more than such a helper's work.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from engine.kernel.compiled import INTERPRETED

_HERE = Path(__file__).parent
SOURCES = (*sorted(_HERE.glob("*.py")), _HERE.parent / "actions.py")


def fingerprint(paths: Iterable[Path]) -> str:
    """A hash of the files' contents: the name of the cache the kernel compiled from them."""
    digest = hashlib.blake2b(digest_size=8)
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


CACHE_ROOT_VARIABLE = "KINGDOMS_KERNEL_CACHE"  # where the compiled code goes, if set


def cache_folder() -> Path:
    root = Path(os.environ.get(CACHE_ROOT_VARIABLE) or _HERE / "__pycache__")
    return root / f"compiled-{fingerprint(SOURCES)}"


def _compile_into_cache_folder() -> None:
    """Import the compiled modules with numba's cache pointed at this source's own folder."""
    import numba

    before = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(cache_folder())
    try:
        from engine.kernel import (  # noqa: F401
            games,
            layout,
            play,
            policies,
            random_play,
            replay,
            scoring,
            search,
            stream,
            trace,
        )
    finally:
        numba.config.CACHE_DIR = before


if not INTERPRETED:
    _compile_into_cache_folder()
