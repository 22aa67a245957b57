"""The heatmaps' figures against laws and independent answers: mirrored cells agree (the
rules are symmetric under reflection of the board), win association reads 0 under random play,
every cell interval treats the game as the unit and stays within its figure's range, and a
cell's examples exist when it counts any.

The lakes are played here by the kernel; the references are worked out from the `castles` and
`moves` views, not from the aggregates the queries read.
"""

from __future__ import annotations

import math
from collections import defaultdict

import pytest

from data.lake import Lake
from data.reader import connect, execute
from data.simulate import Plan, simulate
from engine.geometry import geometry
from engine.rules import RuleSet
from engine.stats import Z95, wilson_interval

BOARD = geometry(RuleSet().rows, RuleSet().columns)  # the board of the lakes' games

PAIRS_Z = 3.23  # two-sided 95% for the family of the board's 39 mirror pairs (Bonferroni)


@pytest.fixture(scope="module")
def heuristic(tmp_path_factory):
    """2,100 games of heuristic agents at 2, 3 and 4 players."""
    lake = Lake(tmp_path_factory.mktemp("heuristic"))
    simulate(lake, Plan(2100, agents=("heuristic",), seed=35), progress=False)
    return connect(lake)


@pytest.fixture(scope="module")
def random_play(tmp_path_factory):
    """60 heuristic games, then 4,000 random games at 2, 3 and 4 players in four newer batches."""
    lake = Lake(tmp_path_factory.mktemp("random"))
    simulate(lake, Plan(60, agents=("heuristic",), seed=37), progress=False)
    simulate(lake, Plan(4000, seed=36, batch_size=1000), progress=False)
    return connect(lake)


def _mirror_pairs() -> list[tuple[str, str]]:
    """Every pair of distinct cells that are mirror images of each other, from the engine."""
    pairs = set()
    for cell in range(BOARD.cells):
        for image in BOARD.mirror_images(cell):
            if image != cell:
                pairs.add(tuple(sorted((BOARD.cell_name(cell), BOARD.cell_name(image)))))
    return sorted(pairs)


def test_mirrored_cells_castle_yields_agree_within_their_intervals(heuristic) -> None:
    frame = execute(heuristic, "cell_castle_yield", {"pooled": False})
    cells = {row["cell"]: row for row in frame.iter_rows(named=True)}
    pairs = _mirror_pairs()
    assert len(pairs) == 39  # six classes of four cells, three of two
    for a, b in pairs:
        first, second = cells[a], cells[b]
        assert min(first["observations"], second["observations"]) > 500
        errors = [(row["ci_high"] - row["ci_low"]) / 2 / Z95 for row in (first, second)]
        gap = abs(first["value"] - second["value"])
        assert gap <= PAIRS_Z * math.hypot(*errors), (a, b, gap, errors)


def test_win_association_reads_zero_under_random_play(random_play) -> None:
    frame = execute(random_play, "cell_win_association", {"pooled": False, "level": "random"})
    weighted = sum(row["value"] * row["observations"] for row in frame.iter_rows(named=True))
    assert weighted / frame["observations"].sum() == pytest.approx(0, abs=1e-12)
    inside = [row["ci_low"] <= 0 <= row["ci_high"] for row in frame.iter_rows(named=True)]
    assert sum(inside) >= 0.85 * len(inside)
    assert frame["baseline"].min() == frame["baseline"].max()


def _clustered(by_game: dict[int, list[float]]) -> tuple[float, float]:
    """Mean and 95% half width with the game as the unit (docs/metrics.md)."""
    total = sum(sum(values) for values in by_game.values())
    count = sum(len(values) for values in by_game.values())
    mean, games = total / count, len(by_game)
    spread = sum((sum(values) - mean * len(values)) ** 2 for values in by_game.values())
    return mean, Z95 * math.sqrt(games / (games - 1) * spread) / count


@pytest.mark.parametrize(
    ("pooled", "params"),
    [(True, {}), (False, {"epoch": 2}), (True, {"rank": 3, "players": 3}), (False, {"rank": 1})],
)
def test_castle_yield_intervals_take_the_game_as_the_unit(con, pooled, params) -> None:
    castles = execute(
        con,
        "SELECT c.game_id, c.cell, c.epoch, c.rank, c.gold, g.players "
        "FROM castles c JOIN games g USING (game_id)",
    )
    by_cell: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for game_id, cell, epoch, rank, gold, players in castles.iter_rows():
        wanted = {"epoch": epoch, "rank": rank, "players": players}
        if any(wanted[name] != value for name, value in params.items()):
            continue
        images = BOARD.mirror_images(BOARD.parse_cell(cell)) if pooled else {BOARD.parse_cell(cell)}
        for image in images:
            by_cell[BOARD.cell_name(image)][game_id].append(gold)
    frame = execute(con, "cell_castle_yield", {**params, "pooled": pooled})
    for row in frame.iter_rows(named=True):
        games = by_cell[row["cell"]]
        assert row["games"] == len(games)
        assert row["observations"] == sum(len(values) for values in games.values())
        mean, half = _clustered(games)
        assert row["value"] == pytest.approx(mean)
        assert (row["ci_high"] - row["ci_low"]) / 2 == pytest.approx(half, rel=1e-9)
    board_games = {game for games in by_cell.values() for game in games}
    assert set(frame["board_games"]) == {len(board_games)}


@pytest.mark.parametrize(
    ("board", "filters", "pieces"),
    [
        ("cell_castle_yield", {"level": "heuristic", "rank": 4}, {"piece_kind": "castle"}),
        ("cell_castle_yield", {"level": "random", "epoch": 3}, {"piece_kind": "castle"}),
        ("cell_tile_swing", {"level": "heuristic"}, {"piece_kind": "tile"}),
    ],
)
def test_a_cell_lists_examples_whenever_its_board_counts_some(
    random_play, board, filters, pieces
) -> None:
    """The heuristic games lie in the oldest batch, behind four newer batches of random play."""
    frame = execute(random_play, board, {**filters, "pooled": False})
    for cell, count in frame.select("cell", "observations").iter_rows():
        params = {**filters, **pieces, "cell": cell, "limit": 25}
        assert len(execute(random_play, "cell_examples", params)) == min(count, 25), cell


def _placed(con) -> list[dict]:
    """Every piece placed: its game, epoch, cell, placer's agent, kind (as a heatmap names it)
    and fill time (0 on its epoch's first turn, 1 on the last), from the `moves` view."""
    return execute(
        con,
        "WITH turns AS (SELECT game_id, epoch, max(turn) AS turns FROM moves GROUP BY ALL) "
        "SELECT m.game_id, m.epoch, m.cell, s.agent, "
        "CASE WHEN m.kind = 'castle' THEN 'castle' WHEN m.piece IN ('MT', 'DR', 'GM', 'WZ') "
        "THEN m.piece WHEN m.tile_value > 0 THEN 'resource' ELSE 'hazard' END AS piece_kind, "
        "(m.turn - 1) / greatest(t.turns - 1, 1) AS fill "
        "FROM moves m JOIN turns t USING (game_id, epoch) JOIN seats s USING (game_id, seat) "
        "WHERE m.kind <> 'pass'",
    ).to_dicts()


def _game_epochs(con, agent: str | None, epoch: int | None) -> dict[int, int]:
    """The games the filters keep (those `agent` sat in), each with its epochs (or 1)."""
    rows = execute(
        con,
        "SELECT game_id, count(DISTINCT epoch) AS epochs, bool_or(epoch = $epoch) AS has_epoch "
        "FROM epoch_scores WHERE $agent IS NULL OR game_id IN "
        "(SELECT game_id FROM seats WHERE agent = $agent) GROUP BY game_id",
        {"agent": agent, "epoch": epoch},
    )
    return {
        game: 1 if epoch is not None else epochs
        for game, epochs, has_epoch in rows.iter_rows()
        if epoch is None or has_epoch
    }


CELL_FILTERS = [{}, {"epoch": 2}, {"agent": "greedy"}, {"agent": "random", "epoch": 3}]


@pytest.mark.parametrize("filters", CELL_FILTERS)
@pytest.mark.parametrize("piece_kind", ["castle", "hazard", "DR"])
def test_occupancy_intervals_take_the_game_as_the_unit_within_0_and_1(
    con, filters, piece_kind
) -> None:
    """A game's epochs share its players: the share of epochs is a ratio of sums over games,
    and its Wilson interval is over the effective number of epochs (docs/metrics.md)."""
    epochs = _game_epochs(con, filters.get("agent"), filters.get("epoch"))
    hits: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for piece in _placed(con):
        wanted = {"epoch": piece["epoch"], "agent": piece["agent"]}
        if (
            piece["piece_kind"] == piece_kind
            and piece["game_id"] in epochs
            and all(wanted[name] == value for name, value in filters.items())
        ):
            hits[piece["cell"]][piece["game_id"]] += 1
    frame = execute(con, "cell_occupancy", {**filters, "piece_kind": piece_kind})
    total, games = sum(epochs.values()), len(epochs)
    assert set(frame["board_games"]) == set(frame["games"]) == {games}
    assert set(frame["observations"]) == {total}
    for row in frame.iter_rows(named=True):
        by_game = hits[row["cell"]]
        share = sum(by_game.values()) / total
        spread = sum((by_game.get(g, 0) - share * e) ** 2 for g, e in epochs.items())
        error = math.sqrt(games / (games - 1) * spread) / total
        effective = min(total, share * (1 - share) / error**2) if error > 0 else total
        low, high = wilson_interval(share * effective, effective)
        assert row["value"] == pytest.approx(share)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), abs=1e-12)
        assert 0 <= row["ci_low"] <= row["value"] <= row["ci_high"] <= 1


@pytest.mark.parametrize("filters", CELL_FILTERS)
def test_fill_timing_intervals_take_the_game_as_the_unit_within_0_and_1(con, filters) -> None:
    by_cell: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for piece in _placed(con):
        wanted = {"epoch": piece["epoch"], "agent": piece["agent"]}
        if all(wanted[name] == value for name, value in filters.items()):
            by_cell[piece["cell"]][piece["game_id"]].append(piece["fill"])
    frame = execute(con, "cell_fill_timing", filters)
    kept = _game_epochs(con, filters.get("agent"), filters.get("epoch"))
    assert set(frame["board_games"]) == {len(kept)}
    assert frame["board_observations"][0] == frame["observations"].sum()
    for row in frame.iter_rows(named=True):
        games = by_cell[row["cell"]]
        assert row["games"] == len(games)
        assert row["observations"] == sum(len(values) for values in games.values())
        if len(games) < 2:
            assert row["ci_low"] is None or row["games"] == 0
            continue
        mean, half = _clustered(games)
        assert row["value"] == pytest.approx(mean)
        assert row["ci_low"] == pytest.approx(max(mean - half, 0.0))
        assert row["ci_high"] == pytest.approx(min(mean + half, 1.0))
        assert 0 <= row["ci_low"] <= row["value"] <= row["ci_high"] <= 1


@pytest.mark.parametrize(
    ("board", "filters", "pieces"),
    [
        ("cell_occupancy", {"piece_kind": "DR"}, {"piece_kind": "DR"}),
        ("cell_occupancy", {"piece_kind": "castle", "epoch": 1}, {"piece_kind": "castle"}),
        ("cell_fill_timing", {"level": "random"}, {"piece_kind": "any"}),
    ],
)
def test_an_occupancy_or_fill_board_and_its_examples_agree(con, board, filters, pieces) -> None:
    """The examples beside a board list the pieces the board counts on the cell."""
    frame = execute(con, board, filters)
    for row in frame.iter_rows(named=True):
        count = (
            row["observations"]
            if board == "cell_fill_timing"
            else row["value"] * row["observations"]
        )
        params = {**filters, **pieces, "cell": row["cell"], "limit": 25}
        assert len(execute(con, "cell_examples", params)) == min(round(count), 25), row["cell"]
