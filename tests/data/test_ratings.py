"""Ratings from a real lake: known answers on games whose order is certain by construction,
ties, determinism, and `kingdoms ratings` (--json, filters, bad arguments)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from data.cli import main
from data.lake import Lake
from data.played import PlayedGame, PlayedGames
from data.ratings import fit, of_player_count, outcomes, ratings
from data.reader import connect
from data.simulate import SOURCE
from data.store import store_games
from engine.kernel.batch import random_games
from engine.rules import RuleSet

PAIRINGS = (("A", "B"), ("B", "C"))  # (winner, loser): A never meets C


def two_player_games(count: int, seed: int) -> list[tuple[int, np.ndarray, int]]:
    """Real 2-player games of the kernel: each one's seed, its actions and by how much more
    gold the first seat finished than the second."""
    seeds = range(seed * count, (seed + 1) * count)
    played = random_games(2, RuleSet(), seeds)
    gained = played.gains[:, :, :2].sum(axis=1)  # the same start gold: the gains decide
    return [(s, played.history(g), int(gained[g, 0] - gained[g, 1])) for g, s in enumerate(seeds)]


def ordered_lake(folder: Path, per_pairing: int, seed: int = 31) -> Lake:
    """`per_pairing` games of A beating B and as many of B beating C: in each real game the
    seat with more gold is given the winner's name, so the order A > B > C is certain."""
    decided = [game for game in two_player_games(6 * per_pairing, seed) if game[2]]
    assert len(decided) >= 2 * per_pairing
    games = []
    for number, (game_seed, history, lead) in enumerate(decided[: 2 * per_pairing]):
        winner, loser = PAIRINGS[number % 2]
        names = [winner, loser] if lead > 0 else [loser, winner]
        games.append(PlayedGame(2, RuleSet(), history, names, names, game_seed))
    lake = Lake(folder)
    store_games(lake, PlayedGames.of(games), SOURCE)
    return lake


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Lake:
    return ordered_lake(tmp_path_factory.mktemp("ratings_small"), 12)


@pytest.fixture(scope="module")
def large(tmp_path_factory) -> Lake:
    return ordered_lake(tmp_path_factory.mktemp("ratings_large"), 48)


def test_a_certain_order_is_found_with_intervals_apart(small):
    table = ratings(connect(small), {})
    assert table["player"].to_list() == ["A", "B", "C"]
    assert table["rank"].to_list() == [1, 2, 3]
    assert table["games"].to_list() == [12, 24, 12]
    assert table["kind"].to_list() == ["agent"] * 3 and table["group"].to_list() == [1, 1, 1]
    rows = table.rows(named=True)
    assert rows[0]["rating_low"] > rows[1]["rating_high"]
    assert rows[1]["rating_low"] > rows[2]["rating_high"]
    assert table["rating"].mean() == pytest.approx(1500)  # a group is centred on 1500


def test_uncertainty_shrinks_with_games(small, large):
    few = ratings(connect(small), {})
    many = ratings(connect(large), {})
    assert many["player"].to_list() == ["A", "B", "C"]
    assert (many["half_width"] < few["half_width"]).all()


def test_a_tie_counts_as_a_tie(tmp_path):
    tied = [game for game in two_player_games(1000, seed=5) if not game[2]]
    assert len(tied) >= 3, "random 2-player games tie now and then"
    lake = Lake(tmp_path)
    names = ["X", "Y"]
    games = [PlayedGame(2, RuleSet(), history, names, names, s) for s, history, _ in tied[:3]]
    store_games(lake, PlayedGames.of(games), SOURCE)
    table = ratings(connect(lake), {})
    assert table["rating"].to_list() == pytest.approx([1500, 1500])
    assert table["games"].to_list() == [3, 3]


def test_games_of_one_player_rate_nobody(lake):
    """The seeded lake's simulated 2002 games seat only random agents: self-play compares nobody."""
    assert ratings(connect(lake), {"edition": "kingdoms-2002", "source": "simulated"}).is_empty()


def test_an_empty_lake_rates_nobody(tmp_path):
    assert ratings(connect(Lake(tmp_path)), {}).columns[:4] == ["rank", "player", "kind", "rating"]
    assert ratings(connect(Lake(tmp_path)), {}).is_empty()


def test_the_same_lake_gives_the_same_ratings_whatever_the_order(small):
    counts = of_player_count(outcomes(connect(small), {}), None)
    assert fit(counts).equals(fit(dict(reversed(list(counts.items())))))
    assert ratings(connect(small), {}).equals(ratings(connect(small), {}))


def test_outcomes_of_every_player_count_cut_to_one_give_that_counts_ratings(lake):
    every_count = outcomes(connect(lake), {})
    assert set(every_count) == {2, 3, 4}
    for players in (2, 3, 4):
        cut = fit(of_player_count(every_count, players))
        assert cut.equals(ratings(connect(lake), {"players": players}))


def test_people_are_rated_by_name_apart_from_agents(lake):
    table = ratings(connect(lake), {"source": "recorded"})
    assert set(table["kind"]) == {"person"}
    assert {"Ann", "Bob"} <= set(table["player"])
    agents = ratings(connect(lake), {"source": "simulated"})
    assert set(agents["player"]) == {"greedy", "random"}


def test_unconnected_groups_are_ranked_apart(lake, capsys):
    """The seeded lake's agents never meet its people, and its records seat two groups of
    people who never met: each group is ranked from 1, strongest first."""
    table = ratings(connect(lake), {})
    groups = table.partition_by("group", maintain_order=True)
    assert table["group"].to_list() == sorted(table["group"])
    assert len(groups) >= 2 and [g["group"][0] for g in groups] == list(range(1, len(groups) + 1))
    for group in groups:
        assert group["rank"].to_list() == list(range(1, group.height + 1))
        assert group["rating"].to_list() == sorted(group["rating"], reverse=True)
        assert group["kind"].n_unique() == 1  # people and agents never share a table here
    assert main(["ratings", "--lake", str(lake.root)]) == 0
    printed = capsys.readouterr().out
    for group in groups:
        heading = f"group {group['group'][0]} of {len(groups)}: {group.height} players"
        assert heading in printed


def test_ratings_command_prints_json(small, capsys):
    assert main(["ratings", "--lake", str(small.root), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [row["player"] for row in printed["ratings"]] == ["A", "B", "C"]
    assert {"rating", "half_width", "games", "rank"} <= set(printed["ratings"][0])


def test_ratings_command_follows_the_player_count(small, capsys):
    assert main(["ratings", "--lake", str(small.root), "--players", "3"]) == 0
    assert "nothing to rate" in capsys.readouterr().out


@pytest.mark.parametrize(
    "arguments, said",
    [
        (["--players", "five"], "'five' is not a whole number"),
        (["--players", "5"], "player count must be 2 to 4, not 5"),
        (["--source", "dreamt"], "invalid choice: 'dreamt'"),
    ],
)
def test_ratings_command_refuses_a_bad_argument(small, capsys, arguments, said):
    assert main(["ratings", "--lake", str(small.root), *arguments]) == 2
    error = capsys.readouterr().err
    assert said in error and error.count("\n") == 1
