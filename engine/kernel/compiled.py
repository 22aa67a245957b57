"""The kernel's three ways of compiling a function with numba (each cached on disk).

`kernel` compiles with numba's reference counting of arrays, which allocating an array needs.
`helper` compiles without it, for a function that allocates no array and returns none: a call
into it then updates no reference counts (atomic operations that cost more than a small
function's work), and it may call only helpers, inlined functions and kernel functions that
return no array. `inline` functions are compiled into their callers, with the callers'
counting: small ones, and those a hot loop calls on every step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba


def kernel(function: Callable) -> Any:
    """Compile a function that may allocate arrays (a numba dispatcher, typed as numba's)."""
    return numba.njit(cache=True, _nrt=True)(function)


def helper(function: Callable) -> Any:
    """Compile a function that allocates and returns no array, without reference counting."""
    return numba.njit(cache=True, _nrt=False)(function)


def inline(function: Callable) -> Any:
    """Compile a function into every function that calls it."""
    return numba.njit(cache=True, inline="always")(function)
