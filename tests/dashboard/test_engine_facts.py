"""Every game fact the lake, its SQL and the pages use comes from the engine: a fact renamed or
changed there (monkeypatched here) reaches the stored tables, the views, the aggregates and the
pages, with nothing else edited."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.lake import Lake
from data.played import PlayedGames
from data.reader import connect
from data.simulate import Plan, plan_games
from data.store import store_games
from engine import facts, pieces, rules
from tests.dashboard.conftest import open_page

RENAMED_SEATS = "NESW"
SEATED_VIEWS = ("seats", "moves", "epoch_scores", "castles", "tile_impacts", "agg_seats")


def _lake(folder: Path, games: PlayedGames) -> Lake:
    lake = Lake(folder)
    store_games(lake, games, "simulated")
    return lake


def _column(lake: Lake, sql: str) -> list:
    con = connect(lake)
    try:
        return [row[0] for row in con.sql(sql).fetchall()]
    finally:
        con.close()


@pytest.fixture(scope="module")
def games() -> PlayedGames:
    """Random games of 2, 3 and 4 players, played before any fact is changed."""
    plan = Plan(30, seed=21)
    return plan_games(plan, 0, plan.games)


@pytest.fixture
def renamed_seats(monkeypatch, tmp_path, games) -> Lake:
    monkeypatch.setattr(pieces, "SEAT_LETTERS", RENAMED_SEATS)
    return _lake(tmp_path / "renamed", games)


def test_renamed_seat_letters_reach_every_seated_view(renamed_seats):
    for view in SEATED_VIEWS:
        letters = _column(renamed_seats, f"SELECT DISTINCT seat FROM {view}")
        assert set(letters) == set(RENAMED_SEATS), view
    castles = _column(renamed_seats, "SELECT DISTINCT piece FROM moves WHERE kind = 'castle'")
    assert {piece[0] for piece in castles} == set(RENAMED_SEATS)
    columns = _column(renamed_seats, "SELECT column_name FROM (DESCRIBE tile_placements)")
    assert [f"impact_{letter.lower()}" for letter in RENAMED_SEATS] == columns[-4:]


def test_renamed_seat_letters_keep_each_placers_own_impact(renamed_seats):
    """The tile aggregates find the placer's impact by its (renamed) letter."""
    own = _column(renamed_seats, "SELECT sum(impact) FROM tile_impacts WHERE seat = placer")
    assert own[0] != 0
    kinds = "SELECT sum(sum_own) FROM agg_tile_kinds WHERE all_seats AND all_epochs AND all_timings"
    assert _column(renamed_seats, kinds + " AND all_placed_by") == own
    board = "SELECT sum(sum_own) FROM agg_tile_cells WHERE cell_scope = 'board' AND all_seats"
    assert _column(renamed_seats, f"{board} AND all_epochs") == own


def test_renamed_seat_letters_reach_the_heatmap_examples(monkeypatch, renamed_seats):
    app = open_page(
        monkeypatch, renamed_seats, "app_pages/heatmaps.py", metric="Occupancy: castle", cell="c3"
    )
    assert not app.exception
    examples = app.dataframe[0].value
    assert len(examples) > 0
    assert set(examples["seat"]) <= set(RENAMED_SEATS)
    assert {piece[0] for piece in examples["piece"]} <= set(RENAMED_SEATS)


def test_castle_gold_is_the_engines(monkeypatch, tmp_path, games):
    """The castles' gold is what engine/facts.py says a castle scores (here ten times more)."""
    scored = "SELECT row_gold + column_gold FROM castles ORDER BY game_id, epoch, cell"
    plain = _column(_lake(tmp_path / "plain", games), scored)
    monkeypatch.setattr(facts, "castle_gold", lambda base, rank: 10 * base * rank)
    tenfold = _column(_lake(tmp_path / "tenfold", games), scored)
    assert any(plain) and tenfold == [10 * gold for gold in plain]


def test_turn_order_is_the_engines(monkeypatch, tmp_path, games):
    """Seats' turn positions follow engine/facts.py's turn order (here reversed)."""
    monkeypatch.setattr(
        facts, "turn_position", lambda seat, first, players: (first - seat) % players + 1
    )
    lake = _lake(tmp_path / "reversed", games)
    con = connect(lake)
    rows = con.sql(
        "SELECT g.players, g.first_seat, s.seat, s.turn_position FROM seats s "
        "JOIN games g USING (game_id)"
    ).fetchall()
    con.close()
    letter = pieces.SEAT_LETTERS.index
    assert all(
        position == (letter(first) - letter(seat)) % players + 1
        for players, first, seat, position in rows
    )
    assert any(players > 2 and seat != first for players, first, seat, _ in rows)


@pytest.fixture
def wizard_in_2002(monkeypatch, tmp_path) -> Lake:
    """Games of the 2002 edition played with a wizard (a rule-set file's), stored once the
    engine gives that edition the wizard too."""
    with_it = rules.rules_from_text('base = "kingdoms-2002"\n[tiles]\nWZ = 1\n')
    plan = Plan(12, rules=with_it, seed=22)
    games = plan_games(plan, 0, plan.games)
    shipped = rules._base

    def with_wizard(edition: str, variants: frozenset[str]) -> dict[str, object]:
        parameters = dict(shipped(edition, variants))
        if edition == "kingdoms-2002":
            parameters["tiles"] = (*parameters["tiles"], pieces.WIZARD)
        return parameters

    monkeypatch.setattr(rules, "_base", with_wizard)
    return _lake(tmp_path / "wizard", games)


def test_an_editions_tiles_are_the_engines(wizard_in_2002):
    wizard = pieces.piece_token(pieces.WIZARD)
    assert wizard in _column(
        wizard_in_2002, "SELECT tile FROM edition_tiles WHERE edition = 'kingdoms-2002'"
    )
    assert wizard in _column(wizard_in_2002, "SELECT DISTINCT tile FROM agg_tile_use")


def test_an_editions_tiles_reach_the_tile_impact_page(monkeypatch, wizard_in_2002):
    app = open_page(monkeypatch, wizard_in_2002, "app_pages/tile_impact.py")
    assert not app.exception
    [improvement] = [d.value for d in app.dataframe if "seats_not_placed" in d.value.columns]
    assert pieces.piece_token(pieces.WIZARD) in set(improvement["tile"])
