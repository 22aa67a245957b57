"""The real thing: `kingdoms dashboard` on a free port, every page in headless Chromium."""

from __future__ import annotations

import re
import shutil
import time

import pytest
from playwright.sync_api import Page, expect

from dashboard.recording import Recording
from data.drafts import delete_draft, load_draft, new_draft_id, save_draft
from data.levels import default_level, precisions
from data.practice import player_puzzles, puzzle_position
from data.practice_schedule import load_progress, progress_path
from data.reader import connect, execute
from data.review_rows import DEFAULT_SEED
from engine import pieces
from engine.evaluate import DEFAULT_BUDGET
from engine.moves import CASTLE, DRAW, PASS, START, Move
from engine.record import Record, RecordedMove, parse_record
from engine.rules import rule_set
from engine.state import Game
from tests.dashboard.browser import (
    CHART,
    PAGES,
    board_cell_centre,
    chromium,
    clipped_labels,
    compare_in_sandbox,
    dashboard_server,
    open_page,
    wait_until_drawn,
)
from tests.lakes import RECORDS, review_first_game_of

pytestmark = pytest.mark.slow

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
RECORD = RECORDS / "2026-11-02-ann-bob.kgn"  # two players, 90 moves, a starting tile unseen
GEOMETRY = Game(2).geometry
SEATS = pieces.SEAT_LETTERS
STEP_MS = 60_000  # one step's limit: the machine is shared and may be slow
BUTTONS = '[data-testid="stButtonGroup"] button, [data-testid="stButton"] button'


def tile_label(tile: int) -> str:
    """A tile as the palette shows it (a true minus sign for hazards)."""
    return pieces.piece_token(tile).replace("-", "−")


def test_every_page_renders_text_and_a_chart_in_chromium(lake):
    with dashboard_server(lake.root) as url, chromium() as browser:
        for name, (path, text) in PAGES.items():
            page = open_page(browser, url, path, timeout_ms=120_000)
            body = page.inner_text("body")
            assert text in body, f"{name}: '{text}' missing"
            assert "Traceback" not in body and "Error" not in page.title(), name
            assert page.locator(CHART).count() > 0, f"{name}: no chart drawn"
            page.close()


def test_replay_steps_with_the_keyboard(lake):
    """Open a replay by URL, press → twice: the move, the URL and the drawn board change."""
    game_id = execute(connect(lake), "game_search", {"limit": 1})["game_id"][0]
    with dashboard_server(lake.root) as url, chromium() as browser:
        page = open_page(browser, url, f"replay?game={game_id}&ply=30", timeout_ms=120_000)
        assert "Move 30" in page.inner_text("body")
        board_before = page.locator(CHART).first.screenshot()
        for _ in range(2):
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(700)
        page.wait_for_function("() => window.location.search.includes('ply=32')", timeout=30_000)
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000
        )
        page.wait_for_timeout(800)
        assert "Move 32" in page.inner_text("body")
        assert page.locator(CHART).first.screenshot() != board_before


def test_a_heatmap_example_opens_its_replay_in_the_same_tab(lake):
    """Click an example game's row under the heatmap: the same tab shows its replay at the ply
    of the placement."""
    con = connect(lake)
    level = default_level(precisions(execute(con, "level_precision")))  # the page's default
    examples = execute(
        con, "cell_examples", {"cell": "d2", "piece_kind": "castle", "limit": 25, "level": level}
    )
    first = examples.row(0, named=True)
    with dashboard_server(lake.root) as url, chromium() as browser:
        page = open_page(
            browser, url, "heatmaps?metric=Occupancy%3A+castle&cell=d2", timeout_ms=120_000
        )
        grid = page.locator('[data-testid="stDataFrame"]').first
        grid.scroll_into_view_if_needed()
        box = grid.bounding_box()
        page.mouse.click(box["x"] + 16, box["y"] + 35 + 17)  # the first row's selection box
        page.wait_for_function("() => window.location.pathname.endsWith('/replay')", timeout=60_000)
        assert f"game={first['game_id']}" in page.url and f"ply={first['ply']}" in page.url
        assert len(page.context.pages) == 1, "the replay opens in the same tab"


def _moves(lake, draft_id: str) -> list[RecordedMove]:
    draft = load_draft(lake, draft_id)
    return Recording.from_text(draft.record, draft.first_seat).moves if draft else []


def _new_draft(lake, record: Record, first_seat: int) -> str:
    draft_id = new_draft_id()
    recording = Recording.new(record.rules, record.names, first_seat)
    save_draft(lake, draft_id, first_seat, recording.text())
    return draft_id


def _recorded(page: Page, seat: int, move: Move) -> None:
    """Wait until the page says the move was recorded."""
    text = f"{SEATS[seat]} {move.to_str(GEOMETRY)} recorded."
    expect(page.get_by_text(text, exact=True)).to_be_visible(timeout=STEP_MS)
    wait_until_drawn(page)


def _next_epoch(page: Page, ply: int, plies: int, key: bool) -> bool:
    """After the last move of an epoch, go on to the next (with Enter, or a click on Continue);
    True if an epoch ended."""
    if ply % GEOMETRY.cells or ply == plies:
        return False
    go_on = page.get_by_role("button", name=re.compile(r"^Continue to epoch"))
    expect(go_on).to_be_visible(timeout=STEP_MS)
    page.keyboard.press("Enter") if key else go_on.click()
    expect(page.get_by_text("Type a move")).to_be_visible(timeout=STEP_MS)
    wait_until_drawn(page)
    return True


def _click_move(page: Page, move: Move) -> None:
    """A move with the mouse: its action in the palette, its cell on the board, then Play."""
    if move.kind != PASS:
        group, name = {
            CASTLE: ("Castle of rank (× how many are left)", re.compile(f"^C{move.rank} ×")),
            DRAW: ("Drawn tile", tile_label(move.tile)),
            START: ("Starting tile", tile_label(move.tile)),
        }[move.kind]
        pills = page.get_by_role("radiogroup", name=group)
        pills.get_by_role("radio", name=name, exact=True).click()
        cell_box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Cell")
        expect(cell_box).to_be_visible(timeout=STEP_MS)
        wait_until_drawn(page)
        page.mouse.click(*board_cell_centre(page, GEOMETRY.cell_name(move.cell)))
        expect(cell_box.locator("input")).to_have_value(
            GEOMETRY.cell_name(move.cell), timeout=STEP_MS
        )
        wait_until_drawn(page)
    play = page.get_by_role("button", name="Play Shortcut Enter").filter(visible=True)
    expect(play).to_be_enabled(timeout=STEP_MS)
    play.click()


def _type_move(page: Page, move: Move) -> None:
    """A move from the keyboard, in the record notation, then Enter (once the box holds all of
    it: a box drawn again while keys arrive would lose the first ones)."""
    box, text = _typing_box(page), move.to_str(GEOMETRY)
    box.fill(text)
    expect(box).to_have_value(text, timeout=STEP_MS)
    box.press("Enter")


def _typing_box(page: Page):
    return (
        page.locator('[data-testid="stSelectbox"]').filter(has_text="Type a move").locator("input")
    )


def test_record_a_whole_game_by_clicking_and_by_typing(lake):
    """A 90-move record of two players entered twice at 1280 × 800, by clicking (palette, board,
    Play) and by typing (`C1 c3`, Enter): the drafts hold its moves and its gold. Prints the
    time each took (targets: 3 minutes by clicking, 90 s by typing)."""
    record = parse_record(RECORD.read_text())
    moves = [move for epoch in record.epochs for move in epoch.moves]
    first = moves[0].seat
    times = {}
    drafts = [_new_draft(lake, record, first), _new_draft(lake, record, first)]
    try:
        with dashboard_server(lake.root) as url, chromium() as browser:
            for how, draft_id in zip(("clicking", "typing"), drafts, strict=True):
                page = open_page(browser, url, f"record?draft={draft_id}", timeout_ms=120_000)
                page.set_viewport_size(LAPTOP)
                page.wait_for_timeout(1000)
                if how == "typing":
                    _typing_box(page).click()
                started = time.perf_counter()
                for ply, recorded in enumerate(moves, start=1):
                    (_click_move if how == "clicking" else _type_move)(page, recorded.move)
                    _recorded(page, recorded.seat, recorded.move)
                    if _next_epoch(page, ply, len(moves), key=how == "typing") and how == "typing":
                        _typing_box(page).click()
                times[how] = time.perf_counter() - started
                assert [(m.seat, m.move) for m in _moves(lake, draft_id)] == [
                    (m.seat, m.move) for m in moves
                ], how
                expect(
                    page.get_by_text(f"The game is over: {record.tags['Result']}.")
                ).to_be_visible()
                page.close()
    finally:
        for draft_id in drafts:
            delete_draft(lake, draft_id)
    print(
        f"\n{len(moves)} moves at {LAPTOP['width']} x {LAPTOP['height']}: "
        + ", ".join(
            f"by {how} {seconds:.1f} s ({seconds / len(moves):.2f} s a move)"
            for how, seconds in times.items()
        )
    )


def test_record_a_move_by_palette_board_click_and_enter(lake):
    """A castle from the palette, a click on f5: the cell is only chosen, and no tooltip is
    left over the Play button; Enter records the move, and the next starts with nothing
    chosen."""
    draft_id = new_draft_id()
    save_draft(lake, draft_id, 0, Recording.new(rule_set(), ["Mia", "Noa"], 0).text())
    try:
        with dashboard_server(lake.root) as url, chromium() as browser:
            page = open_page(browser, url, f"record?draft={draft_id}", timeout_ms=120_000)
            page.set_viewport_size(LAPTOP)
            page.get_by_role("radio", name="C1 ×4").click()
            cell_box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Cell")
            expect(cell_box).to_be_visible(timeout=STEP_MS)
            wait_until_drawn(page)
            page.mouse.click(*board_cell_centre(page, "f5"))
            expect(cell_box.locator("input")).to_have_value("f5", timeout=STEP_MS)
            wait_until_drawn(page)
            assert _moves(lake, draft_id) == []  # a click chooses the cell, it does not play
            play = page.get_by_role("button", name="Play Shortcut Enter").filter(visible=True)
            expect(play).to_be_enabled()
            expect(page.locator("#vg-tooltip-element")).to_be_hidden()
            box = play.bounding_box()
            on_top = page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y).closest('button')?.innerText",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
            )
            assert on_top and on_top.startswith("Play")
            page.keyboard.press("Enter")
            expect(page.get_by_text("A C1 f5 recorded.")).to_be_visible(timeout=STEP_MS)
            assert [(m.seat, m.move.rank, m.move.cell) for m in _moves(lake, draft_id)] == [
                (0, 1, 29)
            ]
            expect(page.get_by_text("Choose an action first.").first).to_be_visible()
    finally:
        delete_draft(lake, draft_id)


@pytest.mark.parametrize("window", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_every_label_of_the_move_palette_reads(lake, window, tmp_path):
    """Castle ranks, drawn and starting tiles: every button shows its whole label, at 1280 × 800
    and on a phone (screenshots in the test's folder)."""
    draft_id = new_draft_id()
    save_draft(lake, draft_id, 0, Recording.new(rule_set(), ["Mia", "Noa"], 0).text())
    try:
        with dashboard_server(lake.root) as url, chromium() as browser:
            page = open_page(browser, url, f"record?draft={draft_id}", timeout_ms=120_000)
            page.set_viewport_size(window)
            page.wait_for_timeout(1500)
            tiles = [tile_label(t) for t in sorted(set(Game(2).rules.tiles))]
            for group, expected in [
                ("Castle of rank (× how many are left)", ["C1 ×4", "C2 ×3", "C3 ×2", "C4 ×1"]),
                ("Drawn tile", tiles),
                ("Starting tile", tiles),
            ]:
                pills = page.get_by_role("radiogroup", name=group).get_by_role("radio")
                assert [t.strip() for t in pills.all_inner_texts()] == expected, group
            page.get_by_role("radiogroup", name="Drawn tile").scroll_into_view_if_needed()
            shot = tmp_path / f"record-palette-{window['width']}x{window['height']}.png"
            page.screenshot(path=shot)
            print(f"\nscreenshot: {shot}")
            assert clipped_labels(page, BUTTONS) == []
    finally:
        delete_draft(lake, draft_id)


def test_practice_a_puzzle_and_its_progress_survives_a_reload(lake):
    """From Bob's Player page, open his puzzles and answer the first with a castle on an empty
    cell clicked on the board: the engine's verdict shows, and after a reload the page counts
    the puzzle answered."""
    player = "Bob"
    game_id = review_first_game_of(lake, player)
    try:
        first = player_puzzles(lake, player, DEFAULT_BUDGET, DEFAULT_SEED)[0]
        state = puzzle_position(lake, first, DEFAULT_SEED).state
        empty = state.geometry.cell_name(state.board.index(pieces.EMPTY))
        with dashboard_server(lake.root) as url, chromium() as browser:
            page = open_page(browser, url, f"player?player={player}", timeout_ms=120_000)
            page.set_viewport_size(LAPTOP)
            page.get_by_role("link", name="Practise the moves that cost you most").click()
            practice = re.compile(rf"/practice\?player={player}(&|$)")
            expect(page).to_have_url(practice, timeout=STEP_MS)
            expect(page.get_by_text(re.compile(r"· 0 answered"))).to_be_visible(timeout=STEP_MS)
            page.get_by_role("radio", name=re.compile(r"^C\d ×")).first.click()
            cell_box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Cell")
            expect(cell_box).to_be_visible(timeout=STEP_MS)
            wait_until_drawn(page)
            page.mouse.click(*board_cell_centre(page, empty))
            expect(cell_box.locator("input")).to_have_value(empty, timeout=STEP_MS)
            wait_until_drawn(page)
            page.get_by_role("button", name="Answer").click()
            expect(page.get_by_text(re.compile(r"^(Solved|Missed)\. Your move"))).to_be_visible(
                timeout=STEP_MS
            )
            expect(page.get_by_text("The line it expects", exact=False)).to_be_visible()
            page.reload(wait_until="domcontentloaded")
            expect(page.get_by_text(re.compile(r"· 1 answered"))).to_be_visible(timeout=STEP_MS)
            assert load_progress(lake, player).card(first).tries == 1
    finally:
        progress_path(lake, player).unlink(missing_ok=True)
        shutil.rmtree(lake.root / "reviews" / f"game_id={game_id}")


def test_sandbox_checks_an_edit_and_compares_with_the_base(lake, tmp_path):
    """On the Sandbox page, a refused edit of the text shows the engine's reason at its line;
    once fixed, a comparison with the base draws its table and charts and offers its report
    (on a copy of the lake, which the comparison's games go into)."""
    copy = tmp_path / "lake"
    shutil.copytree(lake.root, copy)
    with dashboard_server(copy) as url, chromium() as browser:
        page = open_page(browser, url, "sandbox", timeout_ms=120_000, chart=False)
        page.set_viewport_size(LAPTOP)
        expect(page.get_by_text("The engine reads a playable rule set")).to_be_visible(
            timeout=STEP_MS
        )
        text = page.get_by_label("As rule-set text (TOML)", exact=True)
        expect(text).to_have_value(re.compile("GM = 1"), timeout=STEP_MS)
        text.fill(text.input_value().replace("GM = 1", "GM = -1"))
        text.press("Control+Enter")
        refusal = re.compile(r"rules\.toml:\d+:1: tiles\.GM: -1 is not a whole number")
        expect(page.get_by_text(refusal)).to_be_visible(timeout=STEP_MS)
        page.get_by_role("button", name="Start over").click()
        expect(page.get_by_text("The engine reads a playable rule set")).to_be_visible(
            timeout=STEP_MS
        )
        compare_in_sandbox(page, 30)
        expect(
            page.get_by_text(re.compile(r"figures differ for real at 3 players"))
        ).to_be_visible()
        expect(page.locator(CHART).first).to_be_attached(timeout=STEP_MS)  # Vega loads late
        assert "Traceback" not in page.inner_text("body")
