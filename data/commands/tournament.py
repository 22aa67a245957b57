"""`kingdoms tournament`: the engine's tournament, and with `--lake` its games kept in the lake."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from data.commands.cluster_options import add_cluster_argument, cluster_executor
from engine.commands import tournament as engine_tournament
from engine.rules import RuleSet
from engine.tournament import GameResult

if TYPE_CHECKING:
    from data.played import PlayedGame

NAME = engine_tournament.NAME
HELP = engine_tournament.HELP + " With --lake, its games are added to the lake."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    engine_tournament.add_arguments(parser)
    parser.add_argument(
        "--lake",
        help="also add the games to this lake (or $KINGDOMS_LAKE / data/lake with --lake '')",
    )
    add_cluster_argument(parser)


def run(args: argparse.Namespace) -> int:
    prepared = engine_tournament.prepare(args)  # bad arguments refused before the lake is made
    lake = None
    if args.lake is not None:
        from data.lake import Lake, lake_path

        lake = Lake(lake_path(args.lake or None))
        lake.require_writable()  # refused before the games are played, not after
    with cluster_executor(args, prepared.workers) as executor:
        results = engine_tournament.play(prepared, executor)
    if lake is not None:
        from data.played import PlayedGames
        from data.simulate import SOURCE
        from data.store import store_games

        games = PlayedGames.of([_played(result, prepared.rules) for result in results])
        store_games(lake, games, SOURCE)
    return engine_tournament.report(args, results)


def _played(result: GameResult, rules: RuleSet) -> PlayedGame:
    from data.played import PlayedGame

    agents = list(result.table.agents)
    return PlayedGame(
        players=len(agents),
        rules=rules,
        history=list(result.actions),
        players_names=agents,
        agents=agents,
        tags={"Event": "tournament", "Round": result.table.seed},
    )
