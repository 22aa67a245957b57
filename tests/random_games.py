"""Random games for the tests: every seat plays the random agent's policy, chance sampled, to the
game's end.

The policy is the random agent's (engine/kernel/random_play.py); chance and the policy's
choices are drawn from the kernel's stream seeded with the game's seed. The compiled kernel
plays them, many seeds at once (engine/kernel/games.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.kernel.batch import KernelGames
from engine.kernel.batch import random_games as _random_games
from engine.state import Game, State
from engine.turns import final_state


def random_games(game: Game, seeds: Sequence[int] | np.ndarray) -> KernelGames:
    """One random game per seed: their actions and gains per epoch."""
    return _random_games(game.players, game.rules, seeds)


def random_game(game: Game, seed: int) -> State:
    """The random game of one seed, replayed into a state (its history and gold as played)."""
    return final_state(game, random_games(game, [seed]).history(0).tolist())
