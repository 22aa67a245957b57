"""Small seeded lakes for the tests, built in temporary folders, and the example records."""

from __future__ import annotations

from pathlib import Path

from data.importer import import_records
from data.lake import Lake
from data.played import PlayedGame, PlayedGames
from data.reader import connect, execute
from data.review_rows import DEFAULT_SEED, review_game
from data.reviews import save_review
from data.simulate import Plan, simulate
from engine.evaluate import DEFAULT_BUDGET
from engine.rules import rule_set, rules_from_text
from engine.state import Game

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "data" / "records"
APP_PAGES = ROOT / "dashboard" / "app_pages"
SIX_BY_SIX = rules_from_text(  # a designer's rule set: 36 cells, four epochs, no gold mine
    'name = "Six by six"\nbase = "kingdoms-2011"\nrows = 6\ncolumns = 6\nepochs = 4\n'
    "[tiles]\nGM = 0\n"
)


def seeded_lake(folder: Path) -> Lake:
    """Random games of 2–4 players in three rule sets, a few greedy games, and the records."""
    lake = Lake(folder)
    simulate(lake, Plan(150, seed=7, batch_size=60), workers=2, progress=False)
    simulate(lake, Plan(30, rules=rule_set("kingdoms-2002", "no-luck"), seed=8), progress=False)
    simulate(lake, Plan(30, rules=rule_set(variants="score-as-you-go"), seed=9), progress=False)
    simulate(lake, Plan(9, agents=("greedy", "random"), seed=10), progress=False)
    assert import_records(lake, sorted(RECORDS.glob("*.kgn"))).errors == []
    return lake


def one_by_one(games: PlayedGames) -> list[PlayedGame]:
    """A batch of simulated games as single games (no tags, every starting tile seen)."""
    seeds, ends = games.seeds.to_pylist(), games.offsets
    return [
        PlayedGame(
            *games.setups.distinct[setup],
            games.actions[ends[g] : ends[g + 1]],
            *games.line_ups[games.line_up[g]],
            seeds[g],
        )
        for g, setup in enumerate(games.setups.code)
    ]


def scratch_lake(folder: Path) -> Lake:
    """A few random games and the records, for tests that write to their lake."""
    lake = Lake(folder)
    simulate(lake, Plan(6, players=(2, 3), seed=11, batch_size=6), progress=False)
    assert import_records(lake, sorted(RECORDS.glob("*.kgn"))).errors == []
    return lake


def review_first_game_of(lake: Lake, player: str) -> int:
    """Review the player's first recorded game as the Practice page reads it; its id."""
    con = connect(lake)
    game_id = execute(
        con,
        "SELECT min(game_id) AS game_id FROM seats JOIN games USING (game_id) "
        "WHERE source = 'recorded' AND player = $p",
        {"p": player},
    )["game_id"][0]
    stored = execute(con, "game_record", {"game_id": game_id}).row(0, named=True)
    game = Game(stored["players"], rule_set(stored["edition"], stored["variant"]))
    review = review_game(game, stored["actions"], DEFAULT_BUDGET, DEFAULT_SEED)
    save_review(lake, game_id, DEFAULT_BUDGET, DEFAULT_SEED, review)
    return game_id
