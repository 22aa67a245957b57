"""The kernel's random stream: SplitMix64, one 64-bit word of state, seeded from a game's seed.

Every random choice of the kernel (chance, the random policy, ties between equal moves) and of
the Python agents that call it reads this stream, so a seed gives the same draws everywhere.
"""

from __future__ import annotations

import hashlib

import numpy as np

from engine.kernel.compiled import inline

_U = np.uint64
_GOLDEN = _U(0x9E3779B97F4A7C15)
_MIX_1 = _U(0xBF58476D1CE4E5B9)
_MIX_2 = _U(0x94D049BB133111EB)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


def seed_word(seed: int | str) -> int:
    """The stream's starting word for a seed: a non-negative int below 2**64 as it is, anything
    else (text, a negative or larger int) through a hash of its text."""
    if isinstance(seed, int) and 0 <= seed < 2**64:
        return seed
    return int.from_bytes(hashlib.blake2b(str(seed).encode(), digest_size=8).digest(), "little")


def new_stream(seed: int | str) -> np.ndarray:
    """A stream (a (1,) uint64 array, advanced in place) seeded from `seed`."""
    return np.array([seed_word(seed)], dtype=np.uint64)


@inline
def next_word(stream):
    """The next 64-bit word (SplitMix64)."""
    stream[0] += _GOLDEN
    z = stream[0]
    z = (z ^ (z >> _U(30))) * _MIX_1
    z = (z ^ (z >> _U(27))) * _MIX_2
    return z ^ (z >> _U(31))


@inline
def random_float(stream) -> float:
    """The next float in [0, 1), from the word's top 53 bits."""
    return float(next_word(stream) >> _U(11)) * _UNIT


@inline
def pick(stream, n: int) -> int:
    """A uniform index below n."""
    return int(random_float(stream) * n)
