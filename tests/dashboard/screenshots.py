"""Save a screenshot of every dashboard page under docs/screenshots/<page>.png: the first screen
a visitor sees in a 1280 × 800 window (the Sandbox's comparison, made on a copy of the lake).

Usage: python -m tests.dashboard.screenshots [--lake PATH] [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from data.lake import Lake, lake_path
from data.practice import player_puzzles
from data.reader import connect, execute
from data.review_rows import DEFAULT_SEED as SEED
from engine.evaluate import DEFAULT_BUDGET as BUDGET
from tests.dashboard.browser import (
    PAGES,
    chromium,
    compare_in_sandbox,
    dashboard_server,
    open_page,
)

WINDOW = {"width": 1280, "height": 800}
SANDBOX_GAMES = 500  # a rule set's games in the Sandbox's comparison


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--lake", help="lake folder (default: $KINGDOMS_LAKE or data/lake)")
    parser.add_argument("--out", default="docs/screenshots", help="folder for the PNG files")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lake = lake_path(args.lake).resolve()
    con = connect(Lake(lake))
    game_id = execute(con, "game_search", {"limit": 1})["game_id"][0]
    players = execute(con, "recorded_players").sort("games", descending=True)
    pages = {name: path for name, (path, _) in PAGES.items()}
    pages |= {"replay": f"replay?game={game_id}&ply=40", "record": "record"}
    pages |= {"player": f"player?player={players['player'][0]}"}
    names = players["player"].to_list()
    practised = next((n for n in names if player_puzzles(Lake(lake), n, BUDGET, SEED)), names[0])
    pages |= {"practice": f"practice?player={practised}"}
    without_chart = ("record", "player", "practice")  # a chart only where the player has one
    with dashboard_server(lake) as url, chromium() as browser:
        for name, path in pages.items():
            page = open_page(
                browser, url, path, timeout_ms=120_000, chart=name not in without_chart
            )
            page.set_viewport_size(WINDOW)
            page.wait_for_timeout(1500)
            page.screenshot(path=str(out / f"{name}.png"))
            page.close()
            print(out / f"{name}.png")
    sandbox(lake, out / "sandbox.png")


def sandbox(lake: Path, shot: Path) -> None:
    """The Sandbox after comparing a gold mine that triples with its base, its results on
    screen; on a copy of the lake, so that the comparison's games stay out of it."""
    with tempfile.TemporaryDirectory() as scratch, chromium() as browser:
        copy = Path(scratch) / "lake"
        shutil.copytree(lake, copy)
        with dashboard_server(copy) as url:
            page = open_page(browser, url, "sandbox", timeout_ms=120_000, chart=False)
            page.set_viewport_size(WINDOW)
            compare_in_sandbox(page, SANDBOX_GAMES)
            heading = page.get_by_role("heading", name="Compare with the base")
            heading.evaluate("element => element.scrollIntoView({block: 'start'})")
            page.mouse.move(0, 0)
            page.wait_for_timeout(1500)
            page.screenshot(path=str(shot))
            print(shot)


if __name__ == "__main__":
    main()
