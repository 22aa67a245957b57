"""The kernel's three ways of compiling a function with numba (each cached on disk).

`kernel` compiles with numba's reference counting of arrays, which allocating an array needs.
`helper` compiles without it, for a function that allocates no array and returns none: a call
into it then updates no reference counts (atomic operations that cost more than a small
function's work), and it may call only helpers, inlined functions and kernel functions that
return no array. `inline` functions are compiled into their callers, with the callers'
counting: small ones, and those a hot loop calls on every step.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from engine.startup import INTERPRETED_VARIABLE

# The same source as plain Python over numpy, without numba (engine/startup.py says when).
INTERPRETED = os.environ.get(INTERPRETED_VARIABLE) == "1"


def _compiled(**options: Any) -> Callable[[Callable], Any]:
    if INTERPRETED:
        return lambda function: function
    import numba

    return numba.njit(cache=True, **options)


def kernel(function: Callable) -> Any:
    """Compile a function that may allocate arrays (a numba dispatcher, typed as numba's)."""
    return _compiled(_nrt=True)(function)


def helper(function: Callable) -> Any:
    """Compile a function that allocates and returns no array, without reference counting."""
    return _compiled(_nrt=False)(function)


def inline(function: Callable) -> Any:
    """Compile a function into every function that calls it."""
    return _compiled(inline="always")(function)
