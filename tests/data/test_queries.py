"""Each named query against answers worked out independently, on a tiny lake of two records."""

from __future__ import annotations

import shutil
from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from data.balance import balance_by_players
from data.importer import import_records
from data.lake import Lake, LakeError
from data.reader import QueryError, connect, execute, query_names, query_parameters
from data.simulate import SOURCE, Plan, plan_games
from data.store import store_games
from engine import pieces
from engine.record import read_record_file
from engine.scoring import score_breakdown
from engine.state import Game
from engine.turns import Turn, walk
from tests.data.turns import most_legal_actions
from tests.lakes import RECORDS, one_by_one

TINY = ["2026-11-02-ann-bob.kgn", "2026-11-09-club-night.kgn"]
LETTERS = pieces.SEAT_LETTERS


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    lake = Lake(tmp_path_factory.mktemp("tiny"))
    import_records(lake, [RECORDS / name for name in TINY])
    return connect(lake)


@pytest.fixture(scope="module")
def games():
    """Per record: final gold, epoch boards and the turn order, straight from the engine."""
    result = []
    for name in TINY:
        record, state = read_record_file(RECORDS / name)
        boards = defaultdict(lambda: [0] * 30)
        first = None
        for item in walk(record.game, state.history):
            if isinstance(item, Turn):
                first = item.seat if first is None else first
                move = item.move
                if move.cell is not None:
                    boards[item.epoch][move.cell] = (
                        pieces.castle(item.seat, move.rank) if move.kind == "castle" else move.tile
                    )
        result.append({"record": record, "state": state, "boards": boards, "first": first})
    return result


def test_every_query_runs_on_the_tiny_and_on_an_empty_lake(tiny, tmp_path):
    empty = connect(Lake(tmp_path))
    for name in query_names():
        params = {"game_id": 1} if name.startswith("game_") and name != "game_search" else {}
        if name == "cell_examples":
            params = {"cell": "a1"}
        for con in (tiny, empty):
            execute(con, name, params)


@pytest.mark.parametrize("pooled", [False, True])
def test_castle_yield_per_cell(tiny, games, pooled):
    """Each cell's castles, or with pooling those of the cell and its mirror images."""
    gold = defaultdict(list)
    for game in games:
        geometry = game["record"].game.geometry
        for board in game["boards"].values():
            for c in score_breakdown(board, game["record"].players, geometry).castles:
                for cell in geometry.mirror_images(c.cell) if pooled else (c.cell,):
                    gold[cell].append(c.row_gold + c.column_gold)
    frame = execute(tiny, "cell_castle_yield", {"pooled": pooled})
    assert len(frame) == 30
    for row in frame.iter_rows(named=True):
        cell = (row["cell_row"] - 1) * 6 + row["cell_column"] - 1
        assert row["observations"] == len(gold[cell])
        if gold[cell]:
            assert row["value"] == pytest.approx(sum(gold[cell]) / len(gold[cell]))
        else:
            assert row["value"] is None


def test_filters_narrow_the_games(tiny):
    two = execute(tiny, "cell_castle_yield", {"players": 2})
    three = execute(tiny, "cell_castle_yield", {"players": 3})
    both = execute(tiny, "cell_castle_yield")
    assert (two["observations"] + three["observations"]).to_list() == both["observations"].to_list()
    assert execute(tiny, "game_search", {"player": "Cy"})["players"].to_list() == [3]
    assert execute(tiny, "game_search", {"source": "simulated"}).is_empty()


def test_seat_advantage_and_lead_changes(tiny, games):
    frame = execute(tiny, "seat_advantage", {"players": 2})
    game = games[0]
    gold = game["state"].returns()
    winner = gold.index(max(gold))
    position = (winner - game["first"]) % 2 + 1
    shares = dict(zip(frame["position"], frame["mean_win_share"], strict=True))
    assert shares[str(position)] == 1.0 and shares[str(3 - position)] == 0.0
    changes = execute(tiny, "lead_changes", {"players": 2})
    leaders = []
    running = [50, 50]
    for gains in game["state"].epoch_gains:
        running = [r + g for r, g in zip(running, gains, strict=True)]
        leaders.append({s for s, v in enumerate(running) if v == max(running)})
    expected = sum(1 for a, b in zip(leaders, leaders[1:], strict=False) if not a & b)
    assert changes["lead_changes"].to_list() == [expected]


def test_tile_impact_on_the_placer(tiny, games):
    placer_impacts = []
    for game in games:
        record = game["record"]
        placers = {}
        for item in walk(record.game, game["state"].history):
            if isinstance(item, Turn) and item.move.kind in ("draw", "start"):
                placers[(item.epoch, item.move.cell)] = item.seat
        for epoch, board in game["boards"].items():
            impacts = score_breakdown(board, record.players, record.game.geometry).impacts
            for cell, per_seat in impacts.items():
                if board[cell] == pieces.GOLD_MINE:
                    placer_impacts.append(per_seat[placers[(epoch, cell)]])
    frame = execute(tiny, "tile_impact").filter(tile="GM")
    assert frame["placements"].to_list() == [len(placer_impacts)]
    assert frame["placer_impact"][0] == pytest.approx(sum(placer_impacts) / len(placer_impacts))


def test_one_game(tiny, games):
    game_id = execute(tiny, "game_search", {"players": 2})["game_id"][0]
    moves = execute(tiny, "game_moves", {"game_id": game_id})
    record = games[0]["record"]
    assert len(moves) == sum(len(epoch.moves) for epoch in record.epochs)
    assert moves["ply"].to_list() == list(range(1, len(moves) + 1))
    seats = execute(tiny, "game_seats", {"game_id": game_id})
    assert seats["final_gold"].to_list() == games[0]["state"].returns()
    summary = execute(tiny, "lake_summary")
    assert summary["games"].sum() == 2
    assert summary["moves"].sum() == sum(len(e.moves) for g in games for e in g["record"].epochs)


def test_one_game_is_read_from_the_batch_holding_it(con):
    """Fetching by id reads one batch (found in the batches' id indexes) and gives every row of
    the game."""
    games = execute(con, "SELECT game_id, batch_id FROM games ORDER BY batch_id, game_id")
    assert games["batch_id"].n_unique() > 3
    for game_id in games["game_id"].gather_every(37):
        moves = execute(con, "game_moves", {"game_id": game_id})
        every = execute(
            con, "SELECT ply FROM moves WHERE game_id = $id ORDER BY ply", {"id": game_id}
        )
        assert moves["ply"].to_list() == every["ply"].to_list() != []
        assert execute(con, "game_record", {"game_id": game_id})["game_id"].to_list() == [game_id]
        assert len(execute(con, "game_seats", {"game_id": game_id})) > 1
    assert execute(con, "game_record", {"game_id": 12345}).is_empty()
    assert "game_batch" not in query_parameters("game_moves")
    with pytest.raises(QueryError, match="no parameter 'game_batch'"):
        execute(con, "game_moves", {"game_id": 1, "game_batch": 1})


def test_each_batch_indexes_its_games_sorted_and_a_lost_index_is_named(lake, tmp_path):
    """The id index beside a batch's games file lists exactly its games, in order; without it,
    a fetch by id says which file is missing."""
    con = connect(lake)
    for batch in lake.batches():
        ids = execute(con, "SELECT game_id FROM games WHERE batch_id = $b", {"b": batch.batch_id})
        assert lake.game_index(batch).tolist() == sorted(ids["game_id"].to_list())
    copy = Lake(shutil.copytree(lake.root, tmp_path / "copy"))
    first = copy.batches()[0]
    index = copy.index_path(first.source, first.batch_id)
    index.unlink()
    with pytest.raises(LakeError, match=f"{index}: the batch's id index is missing"):
        execute(connect(copy), "game_record", {"game_id": 12345})


def test_unknown_parameter_is_refused(tiny):
    with pytest.raises(QueryError, match="no parameter 'colour'"):
        execute(tiny, "cell_castle_yield", {"colour": "red"})


def _turns_and_decisions(game, history) -> tuple[int, int]:
    """A game's turns, and those whose mover had more than one legal action at one of its
    decisions, as the engine lists them along each turn."""
    turns = [item for item in walk(game, history) if isinstance(item, Turn)]
    return len(turns), sum(most_legal_actions(turn) > 1 for turn in turns)


def test_decision_moves(tiny, games):
    """Decision moves: the share of turns with more than one legal action, per player count."""
    counts = defaultdict(lambda: np.zeros(2))
    for game in games:
        record = game["record"]
        counts[record.game.players] += _turns_and_decisions(record.game, game["state"].history)
    assert any(decisions < turns for turns, decisions in counts.values())  # forced turns too
    expected = {players: decisions / turns for players, (turns, decisions) in counts.items()}
    summary = execute(tiny, "balance_summary")
    assert dict(summary.select("players", "decision_share").iter_rows()) == pytest.approx(expected)
    whole = execute(tiny, "duration").filter(epoch=0)
    assert dict(whole.select("players", "decision_share").iter_rows()) == pytest.approx(expected)


def test_decision_moves_interval_counts_each_game_once(tmp_path):
    """The decision share's 95% interval is Wilson's over the effective number of turns, p(1 − p)
    over the squared standard error of the ratio of sums over games, each game one observation
    (the delta method's), so that it stays within [0, 1] (metrics: every rate has an
    interval)."""
    games = plan_games(Plan(40, players=(2, 3)), 0, 40)
    store_games(Lake(tmp_path), games, SOURCE)
    played = one_by_one(games)
    per_game = defaultdict(list)
    for game in played:
        per_game[game.players].append(
            _turns_and_decisions(Game(game.players, game.rules), list(game.actions))
        )
    expected = {}
    for players, counts in per_game.items():
        turns, decisions = np.array(counts, dtype=float).T
        ratio, n = decisions.sum() / turns.sum(), len(turns)
        spread = ((decisions - ratio * turns) ** 2).sum() / (n - 1)
        error = np.sqrt(spread / n) / turns.mean()
        effective = min(turns.sum(), ratio * (1 - ratio) / error**2)
        expected[players] = wilson(ratio * effective, effective)
    summary = execute(connect(Lake(tmp_path)), "balance_summary")
    shown = {
        row[0]: row[1:] for row in summary.select("players", "decision_low", "decision_high").rows()
    }
    assert shown.keys() == expected.keys()
    for players, interval in expected.items():
        assert shown[players] == pytest.approx(interval)
    assert all(0 < low < high <= 1 for low, high in shown.values())


Z = 1.959964  # the metrics definitions' z for 95% intervals


def wilson(hits: float, n: int) -> tuple[float, float]:
    """The Wilson score interval, written out from its definition."""
    p = hits / n
    centre = p + Z * Z / (2 * n)
    spread = Z * (p * (1 - p) / n + Z * Z / (4 * n * n)) ** 0.5
    return (centre - spread) / (1 + Z * Z / n), (centre + spread) / (1 + Z * Z / n)


def kind_of(move, seat: int) -> str:
    """The heatmap's piece kind of a placement, from the engine's move."""
    if move.kind == "castle":
        return "castle"
    if move.tile in pieces.SPECIAL_TOKENS:
        return pieces.SPECIAL_TOKENS[move.tile]
    return "resource" if pieces.tile_value(move.tile) > 0 else "hazard"


@pytest.fixture(scope="module")
def placements(games):
    """Every placement of the tiny lake's records as (players, ply, cell, piece kind, piece
    token, castle rank), the ply counted along the engine's turns."""
    rows = []
    for game in games:
        record = game["record"]
        turns = [t for t in walk(record.game, game["state"].history) if isinstance(t, Turn)]
        for ply, turn in enumerate(turns, start=1):
            move = turn.move
            if move.kind == "pass":
                continue
            piece = pieces.castle(turn.seat, move.rank) if move.kind == "castle" else move.tile
            rank = move.rank if move.kind == "castle" else None
            cell = record.game.geometry.cell_name(move.cell)
            rows.append(
                (
                    record.players,
                    ply,
                    cell,
                    kind_of(move, turn.seat),
                    pieces.piece_token(piece),
                    rank,
                )
            )
    return rows


@pytest.mark.parametrize(
    "params, wanted",
    [
        ({}, lambda kind, rank: kind == "castle"),
        ({"piece_kind": "castle", "rank": 4}, lambda kind, rank: kind == "castle" and rank == 4),
        ({"piece_kind": "tile"}, lambda kind, rank: kind != "castle"),
        ({"piece_kind": "resource"}, lambda kind, rank: kind == "resource"),
        ({"piece_kind": "hazard"}, lambda kind, rank: kind == "hazard"),
        ({"piece_kind": "any"}, lambda kind, rank: True),
    ],
)
def test_cell_examples_list_the_metrics_placements_with_their_ply(tiny, placements, params, wanted):
    """Every placement on the busiest cells that the metric counts, at the ply the engine
    reached it, and no other."""
    busiest = sorted({p[2] for p in placements}, key=lambda c: -sum(p[2] == c for p in placements))
    for cell in busiest[:4]:
        expected = sorted(
            (players, ply, token)
            for players, ply, at, kind, token, rank in placements
            if at == cell and wanted(kind, rank)
        )
        frame = execute(tiny, "cell_examples", {**params, "cell": cell, "limit": 1000})
        assert sorted(frame.select("players", "ply", "piece").iter_rows()) == expected


def test_cell_examples_give_a_castles_gold(tiny):
    frame = execute(tiny, "cell_examples", {"cell": "c3", "piece_kind": "any", "limit": 1000})
    castles = execute(tiny, "SELECT game_id, epoch, seat, gold FROM castles WHERE cell = 'c3'")
    gold = {(g, e, s): v for g, e, s, v in castles.iter_rows()}
    assert len(gold) > 0
    for row in frame.iter_rows(named=True):
        expected = gold.get((row["game_id"], row["epoch"], row["seat"]))
        assert row["castle_gold"] == (expected if row["piece"][0] in "ABCD" else None)


def seat_rows(con) -> list[dict]:
    return execute(
        con,
        "SELECT s.game_id, g.players, s.seat, s.agent, s.turn_position, s.final_gold, "
        "s.win_share, s.margin FROM seats s JOIN games g USING (game_id)",
    ).to_dicts()


def test_head_to_head_from_the_seats_of_games_where_both_agents_sat(con):
    by_game = defaultdict(list)
    for row in seat_rows(con):
        if row["agent"] is not None:
            by_game[row["game_id"]].append(row)
    scores = defaultdict(list)
    for seats in by_game.values():
        for agent in {s["agent"] for s in seats}:
            for opponent in {s["agent"] for s in seats} - {agent}:
                pairs = [
                    (a["final_gold"] > b["final_gold"]) + 0.5 * (a["final_gold"] == b["final_gold"])
                    for a in seats
                    if a["agent"] == agent
                    for b in seats
                    if b["agent"] == opponent
                ]
                scores[(agent, opponent)].append(sum(pairs) / len(pairs))
    frame = execute(con, "head_to_head")
    assert len(frame) == len(scores) > 0
    for row in frame.iter_rows(named=True):
        games = scores[(row["agent"], row["opponent"])]
        assert row["games"] == len(games)
        assert row["score"] == pytest.approx(sum(games) / len(games))
        low, high = wilson(sum(games), len(games))
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), abs=1e-3)


def test_leader_after_an_epoch_goes_on_to_win(con):
    scores = execute(con, "SELECT game_id, epoch, seat, gold_after FROM epoch_scores").to_dicts()
    seats = {(r["game_id"], r["seat"]): r for r in seat_rows(con)}
    standings = defaultdict(dict)
    for row in scores:
        standings[(row["game_id"], row["epoch"])][row["seat"]] = row["gold_after"]
    counts = defaultdict(lambda: [0, 0])
    for (game_id, epoch), gold in standings.items():
        best = max(gold.values())
        leaders = [seat for seat, value in gold.items() if value == best]
        if epoch < 3 and len(leaders) == 1:
            won = seats[(game_id, leaders[0])]["win_share"] > 0
            count = counts[(seats[(game_id, leaders[0])]["players"], epoch)]
            count[0] += 1
            count[1] += won
    frame = execute(con, "leader_wins")
    assert {
        (r["players"], r["epoch"]): [r["games"], r["leader_won"]] for r in frame.to_dicts()
    } == {key: value for key, value in counts.items()}
    for row in frame.iter_rows(named=True):
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(
            wilson(row["leader_won"], row["games"]), abs=1e-3
        )


def mean_and_half_width(values: list[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval, z·SE, written out from the definition."""
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, Z * (var / len(values)) ** 0.5


def test_balance_is_one_minus_the_widest_gap_between_positions(con):
    """Balance from the games' outcome counts (data/balance.py) against the widest gap between
    two positions' mean win shares, worked out game by game from the seats; the bootstrap
    interval holds it and stays within [0, 1]."""
    by_game = defaultdict(dict)
    players = {}
    for row in seat_rows(con):
        by_game[row["game_id"]][row["turn_position"]] = row["win_share"]
        players[row["game_id"]] = row["players"]
    expected = {}
    for count in set(players.values()):
        games = [shares for game_id, shares in by_game.items() if players[game_id] == count]
        gaps = [
            abs(sum(g[a] - g[b] for g in games) / len(games))
            for a in range(1, count + 1)
            for b in range(a + 1, count + 1)
        ]
        expected[count] = (len(games), 1 - max(gaps))
    frame = balance_by_players(execute(con, "balance_outcomes"))
    got = {r["players"]: (r["games"], r["balance"]) for r in frame.to_dicts()}
    assert got.keys() == expected.keys()
    for count, (games, balance) in expected.items():
        assert got[count][0] == games and got[count][1] == pytest.approx(balance)
    assert (frame["balance_low"] >= 0).all() and (frame["balance_high"] <= 1).all()
    assert (frame["balance_low"] <= frame["balance"]).all()
    assert (frame["balance"] <= frame["balance_high"]).all()


def test_balance_margins_and_lengths_per_game_with_their_intervals(con):
    """Winning margin (the winner's margin), close games (won by less than 5) and plies, one
    observation per game, from the seats and the games."""
    margins, plies = defaultdict(list), defaultdict(list)
    for row in seat_rows(con):
        if row["win_share"] > 0 and row["margin"] >= 0:
            margins[(row["players"], row["game_id"])].append(row["margin"])
    for count, length in execute(con, "SELECT players, plies FROM games").rows():
        plies[count].append(length)
    frame = execute(con, "balance_summary")
    assert sorted(frame["players"]) == sorted(plies)
    for row in frame.iter_rows(named=True):
        count = row["players"]
        victory = [max(m) for (p, _), m in margins.items() if p == count]
        close = sum(m < 5 for m in victory)
        assert row["games"] == len(victory) == len(plies[count])
        assert (row["mean_victory_margin"], row["victory_margin_half_width"]) == pytest.approx(
            mean_and_half_width(victory)
        )
        assert (row["mean_plies"], row["plies_half_width"]) == pytest.approx(
            mean_and_half_width(plies[count])
        )
        assert row["close_game_share"] == pytest.approx(close / len(victory))
        assert (row["close_game_low"], row["close_game_high"]) == pytest.approx(
            wilson(close, len(victory)), abs=1e-6
        )


def test_comebacks_and_lead_change_shares_with_their_intervals(con):
    scores = execute(con, "SELECT game_id, epoch, seat, gold_after FROM epoch_scores").to_dicts()
    last = defaultdict(set)  # per game, the seats last after epoch 1 or 2
    for epoch in (1, 2):
        standings = defaultdict(dict)
        for row in scores:
            if row["epoch"] == epoch:
                standings[row["game_id"]][row["seat"]] = row["gold_after"]
        for game_id, gold in standings.items():
            last[game_id] |= {seat for seat, value in gold.items() if value == min(gold.values())}
    games = defaultdict(list)
    for row in seat_rows(con):
        games[row["game_id"]].append(row)
    counts = defaultdict(lambda: [0, 0])
    for game_id, seats in games.items():
        winners = {s["seat"] for s in seats if s["win_share"] > 0}
        counts[seats[0]["players"]][0] += 1
        counts[seats[0]["players"]][1] += bool(winners & last[game_id])
    frame = execute(con, "comebacks")
    assert {r["players"]: [r["games"], r["comebacks"]] for r in frame.to_dicts()} == dict(counts)
    for row in frame.iter_rows(named=True):
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(
            wilson(row["comebacks"], row["games"]), abs=1e-3
        )
    changes = execute(con, "lead_changes")
    for row in changes.iter_rows(named=True):
        assert row["of_games"] == counts[row["players"]][0]
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(
            wilson(row["games"], row["of_games"]), abs=1e-3
        )


@pytest.mark.parametrize("split, cross", [("placed_by", "timing"), ("agent", None)])
def test_tile_impact_crosses_two_splits(con, split, cross):
    crossed = execute(con, "tile_impact", {"split": split, "cross_split": cross})
    placements = execute(
        con,
        "SELECT t.tile, t.placed_by, t.timing, coalesce(s.agent, 'people') AS agent "
        "FROM tile_placements t JOIN seats s ON s.game_id = t.game_id AND s.seat = t.placer",
    )
    key = [split] if cross is None else [split, cross]
    expected = placements.with_columns(pl.col(key).cast(pl.String)).group_by("tile", *key).len()
    got = crossed.select(
        "tile",
        pl.col("split").alias(split),
        *([pl.col("cross_split").alias(cross)] if cross else []),
        pl.col("placements").alias("len").cast(pl.UInt32),
    )
    assert got.sort(got.columns).equals(expected.select(got.columns).sort(got.columns))
    if cross is None:
        assert set(crossed["cross_split"]) == {"all"}
