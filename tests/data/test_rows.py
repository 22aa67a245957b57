"""Every table of the lake agrees with the engine's own replay of the same games."""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest

import data.played
from data.lake import Lake
from data.played import PlayedGame, PlayedGames
from data.reader import execute
from data.simulate import SOURCE
from data.store import store_games
from engine import pieces
from engine.kernel.batch import score_boards
from engine.kernel.replay import ReplayError
from engine.rules import rule_set
from engine.scoring import score_breakdown
from engine.state import Game
from engine.turns import Deal, Turn, walk
from tests.data.turns import most_legal_actions
from tests.random_games import random_game

LETTERS = pieces.SEAT_LETTERS


def _replay(row: dict) -> dict:
    """What the engine says about one stored game: turns, epoch boards and gains, final gold."""
    game = Game(row["players"], rule_set(row["edition"], row["variant"]))
    turns, boards = [], defaultdict(lambda: [0] * game.rules.cells)
    for item in walk(game, row["actions"]):
        if isinstance(item, Deal):
            continue
        assert isinstance(item, Turn)
        move = item.move
        piece = 0
        if move.kind == "castle":
            piece = pieces.castle(item.seat, move.rank)
        elif move.kind != "pass":
            piece = move.tile
        if move.cell is not None:
            boards[item.epoch][move.cell] = piece
        turns.append(
            (
                item.epoch,
                LETTERS[item.seat],
                move.kind,
                move.cell,
                piece,
                most_legal_actions(item),
                item.before.gold[item.seat],
            )
        )
    state = game.new_initial_state()
    for action in row["actions"]:
        state.apply_action(action)
    return {"game": game, "turns": turns, "boards": boards, "state": state}


@pytest.fixture(scope="module")
def replays(con):
    ids = execute(con, "SELECT game_id FROM games")["game_id"]
    rows = [execute(con, "game_record", {"game_id": game_id}).row(0, named=True) for game_id in ids]
    return {row["game_id"]: _replay(row) for row in rows}


def test_stored_games_rebuild_their_exact_actions(replays):
    """The actions rebuilt from the stored turns hash back to the game's id."""
    for stored_id, replay in replays.items():
        game = replay["game"]
        assert data.played.game_id(game.rules, game.players, replay["state"].history) == stored_id


def test_moves_agree(con, replays):
    moves = execute(
        con,
        "SELECT game_id, epoch, seat, kind, cell, piece, legal_actions, gold_before FROM moves "
        "ORDER BY game_id, ply",
    )
    by_game = defaultdict(list)
    for row in moves.iter_rows(named=True):
        by_game[row["game_id"]].append(row)
    assert set(by_game) == set(replays)
    geometry = Game().geometry
    for game_id, expected in replays.items():
        got = [
            (
                r["epoch"],
                r["seat"],
                r["kind"],
                None if r["cell"] is None else geometry.parse_cell(r["cell"]),
                0 if r["piece"] is None else pieces.parse_piece(r["piece"]),
                r["legal_actions"],
                r["gold_before"],
            )
            for r in by_game[game_id]
        ]
        assert got == expected["turns"], game_id


def test_seats_and_epoch_scores_agree(con, replays):
    """The outcome columns as ../shared/spec/metrics.md defines them, from the replay."""
    seats = execute(
        con,
        "SELECT game_id, seat, turn_position, final_gold, rank, win_share, utility, margin "
        "FROM seats",
    )
    for row in seats.iter_rows(named=True):
        replay = replays[row["game_id"]]
        gold = replay["state"].returns()
        seat = LETTERS.index(row["seat"])
        assert row["final_gold"] == gold[seat]
        best = max(gold)
        assert row["win_share"] == pytest.approx(1 / gold.count(best) if gold[seat] == best else 0)
        assert row["margin"] == gold[seat] - max(g for s, g in enumerate(gold) if s != seat)
        places = [place for place, g in enumerate(sorted(gold, reverse=True), 1) if g == gold[seat]]
        rank = sum(places) / len(places)  # tied seats share the average of their places
        assert row["rank"] == pytest.approx(rank)
        assert row["utility"] == pytest.approx(1 - 2 * (rank - 1) / (len(gold) - 1))
        first = LETTERS.index(replay["turns"][0][1])  # who moved first in epoch 1
        assert row["turn_position"] == (seat - first) % len(gold) + 1
    scores = execute(con, "SELECT game_id, epoch, seat, gained FROM epoch_scores")
    for row in scores.iter_rows(named=True):
        state = replays[row["game_id"]]["state"]
        assert row["gained"] == state.epoch_gains[row["epoch"] - 1][LETTERS.index(row["seat"])]


def test_castles_and_impacts_agree(con, replays):
    castles = execute(con, "SELECT * FROM castles")
    impacts = execute(con, "SELECT game_id, epoch, cell, tile, seat, impact FROM tile_impacts")
    geometry = Game().geometry
    expected_castles, expected_impacts = set(), set()
    for game_id, replay in replays.items():
        players = replay["game"].players
        for epoch, board in replay["boards"].items():
            breakdown = score_breakdown(board, players, replay["game"].geometry)
            for c in breakdown.castles:
                expected_castles.add(
                    (
                        game_id,
                        epoch,
                        geometry.cell_name(c.cell),
                        LETTERS[c.seat],
                        c.rank,
                        c.effective_rank,
                        c.row_gold,
                        c.column_gold,
                    )
                )
            for cell, per_seat in breakdown.impacts.items():
                for seat, impact in enumerate(per_seat):
                    expected_impacts.add(
                        (
                            game_id,
                            epoch,
                            geometry.cell_name(cell),
                            pieces.piece_token(board[cell]),
                            LETTERS[seat],
                            impact,
                        )
                    )
    got_castles = {
        (
            r["game_id"],
            r["epoch"],
            r["cell"],
            r["seat"],
            r["rank"],
            r["effective_rank"],
            r["row_gold"],
            r["column_gold"],
        )
        for r in castles.iter_rows(named=True)
    }
    got_impacts = set(impacts.iter_rows())
    assert got_castles == expected_castles
    assert got_impacts == expected_impacts
    assert len(impacts) == len(expected_impacts)


def test_a_batch_with_an_illegal_action_is_refused_whole(tmp_path):
    """The game is named by its id, and nothing of the batch reaches the lake."""
    games, pass_ = [], Game(3).codes.pass_
    for seed in range(3):
        state = random_game(Game(3), seed)
        history = state.history + ([pass_] if seed == 1 else [])  # a pass after the game's end
        games.append(PlayedGame(3, rule_set(), history, ["x"] * 3, ["random"] * 3))
    lake = Lake(tmp_path)
    message = (
        rf"game {games[1].game_id}: action {pass_} \(number {len(games[1].actions)} .* not legal"
    )
    with pytest.raises(ReplayError, match=message):
        store_games(lake, PlayedGames.of(games), SOURCE)
    assert list(lake.batches()) == []


def test_vector_scoring_matches_engine_on_random_boards():
    rng = random.Random(5)
    boards, players = [], []
    for _ in range(300):
        count = rng.choice((2, 3, 4))
        board = [0] * 30
        tiles = list(rule_set().tiles)
        rng.shuffle(tiles)
        for cell in rng.sample(range(30), rng.randrange(0, 30)):
            if rng.random() < 0.4:
                board[cell] = pieces.castle(rng.randrange(count), rng.randrange(1, 5))
            elif tiles:
                board[cell] = tiles.pop()
        boards.append(board)
        players.append(count)
    scores = score_boards(np.array(boards))
    geometry = Game().geometry
    for index, board in enumerate(boards):
        breakdown = score_breakdown(board, players[index], geometry)
        assert list(scores.gold[index, : players[index]]) == list(breakdown.gold)
        for cell, impact in breakdown.impacts.items():
            assert list(scores.impacts[index, cell, : players[index]]) == list(impact)
