"""The kernel's source run as plain Python (what `kingdoms score` and `replay` do, without
numba) plays and scores exactly as the compiled kernel."""

from __future__ import annotations

import os
import subprocess
import sys

from data.cli import main
from engine.startup import INTERPRETED_VARIABLE

# Seeded games of every compiled policy and player count, hashed (actions and gains).
GAMES = """
import hashlib, warnings
warnings.simplefilter("ignore")  # numpy scalars warn where the stream's arithmetic wraps
from engine.kernel.batch import policy_games, random_games
from engine.rules import RuleSet
digest = hashlib.sha256()
for players in (2, 3, 4):
    seats = ["heuristic", "greedy", "apprentice", "random"][:players]
    for games in (random_games(players, RuleSet(), range(3)),
                  policy_games(players, RuleSet(), range(2), seats)):
        digest.update(games.actions.tobytes())
        digest.update(games.gains.tobytes())
print(digest.hexdigest())
"""
RECORD = "data/records/2026-11-16-four-player.kgn"


def _interpreted(*arguments: str) -> str:
    environment = {**os.environ, INTERPRETED_VARIABLE: "1"}
    done = subprocess.run(
        [sys.executable, *arguments], capture_output=True, text=True, check=True, env=environment
    )
    return done.stdout


def test_interpreted_games_are_the_compiled_games(capsys) -> None:
    exec(GAMES, {})  # here, compiled
    assert "numba" in sys.modules and os.environ.get(INTERPRETED_VARIABLE) != "1"
    compiled = capsys.readouterr().out
    assert _interpreted("-c", GAMES) == compiled


def test_the_quick_commands_answer_as_the_compiled_kernel(capsys) -> None:
    board = "+3 B1 A4 C1 -6 A1 / C2 GM +4 +1 MT WZ / +2 +4 B2 -5 -2 C1 / A2 DR +3 MT C1 +5 / -1 -3 C1 A3 +6 +2"  # noqa: E501
    for arguments in (["replay", RECORD, "--json"], ["score", "--json", board]):
        assert main(arguments) == 0
        compiled = capsys.readouterr().out
        assert compiled.strip() and _interpreted("-m", "data.cli", *arguments) == compiled
