"""The compiled kernel held to the readable engine (engine/state.py, engine/scoring.py).

Node by node over seeded random games of every edition × variant × player count: the phase and
the seat to move, the legal actions, the chance outcomes with their probabilities, the gold
after every epoch; at every epoch's end the board's breakdown (gold, segments, every castle's
row and column gold with the wizard, every tile's impact on every seat). Then the batch entry
points, and that nothing of the rules is frozen into the compiled code.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from engine import kernel, pieces
from engine.actions import Block
from engine.geometry import geometry
from engine.kernel import play, scoring
from engine.kernel.batch import random_games, score_boards
from engine.kernel.layout import EPOCH, PHASE, TO_MOVE
from engine.kernel.random_play import new_stream, random_float, seed_stream
from engine.kernel.tables import kernel_rules
from engine.rules import EDITIONS, RuleSet, rule_set
from engine.scoring import score_breakdown
from engine.state import CHANCE, PLACE, TERMINAL, TURN, Game, State
from tests.engine.playout_oracle import random_playout

VARIANT_SETS = (
    "",
    "no-luck",
    "last-castle",
    "score-as-you-go",
    "no-luck,last-castle,score-as-you-go",
)
SETUPS = [
    (edition, variants, players)
    for edition in EDITIONS
    for variants in VARIANT_SETS
    for players in (2, 3, 4)
]
ODD_RULES = RuleSet(start_gold=7, epochs=4)  # parameters no edition uses


def _check_breakdown(board: list[int], players: int, rules: RuleSet) -> None:
    """The kernel's breakdown of one board equals the readable scoring's, item by item."""
    tables = kernel_rules(players, rules)
    geo = geometry(rules.rows, rules.columns)
    expected = score_breakdown(board, players, geo)
    cells = len(board)
    gold = np.zeros(pieces.MAX_SEATS, dtype=np.int64)
    row_base, column_base, rank = np.zeros((3, cells), dtype=np.int64)
    impacts = np.zeros((cells, pieces.MAX_SEATS), dtype=np.int64)
    segments = np.zeros((tables.lines.size * 2, scoring.SEGMENT_RANKS + pieces.MAX_SEATS),
                        dtype=np.int64)  # fmt: skip
    count = scoring.score_board(np.array(board, dtype=np.int64), tables, gold, row_base,
                                column_base, rank, impacts, segments)  # fmt: skip
    assert tuple(gold[:players]) == expected.gold
    assert not gold[players:].any()
    found = []
    for line, start, stop, base, *ranks in segments[:count].tolist():
        cells_in = tuple(c for c in geo.lines[line][start:stop] if board[c] != pieces.MOUNTAIN)
        found.append((cells_in, base, tuple(ranks[:players])))
    assert found == [(s.cells, s.base, s.ranks) for s in expected.segments]
    for castle in expected.castles:
        assert rank[castle.cell] == castle.effective_rank
        assert row_base[castle.cell] * rank[castle.cell] == castle.row_gold
        assert column_base[castle.cell] * rank[castle.cell] == castle.column_gold
    for cell in range(cells):
        impact = tuple(impacts[cell, :players])
        assert impact == expected.impacts.get(cell, (0,) * players), geo.cell_name(cell)


def _play_both(game: Game, rng: random.Random) -> int:
    """Play one random game through the engine and the kernel side by side, comparing every
    node; returns the plies."""
    tables = kernel_rules(game.players, game.rules)
    state = game.new_initial_state()
    mirror = play.new_state(tables)
    plies = 0
    while True:
        player = state.current_player()
        phase = int(mirror.scalars[PHASE])
        assert phase == state.phase
        if player >= 0:
            assert mirror.scalars[TO_MOVE] == player
        legal = state.legal_actions()
        assert play.legal_action_list(mirror, tables) == legal
        if player == TERMINAL:
            break
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            assert play.chance_outcome_list(mirror, tables) == outcomes
        action = rng.choice(legal)
        epoch = state.epoch
        board = list(state.board)
        if placed := _placement(state, action):
            board[placed[0]] = placed[1]
        state.apply_action(action)
        assert play.apply_action(mirror, tables, action)
        plies += 1
        assert list(mirror.board) == state.board
        assert list(mirror.gold[: game.players]) == state.gold
        if state.epoch != epoch or state.is_terminal():  # the epoch ended on `board`
            gains = mirror.gains[: len(state.epoch_gains), : game.players].tolist()
            assert gains == state.epoch_gains
            assert mirror.scalars[EPOCH] == state.epoch
            _check_breakdown(board, game.players, game.rules)
    return plies


def _placement(state: State, action: int) -> tuple[int, int] | None:
    """The cell and piece an action puts on the board, None for one that places nothing."""
    codes = state.codes
    if state.phase == PLACE:
        return codes.decode(action)[1], state.pending_tile
    if state.phase != TURN:
        return None
    block, cell = codes.decode(action)
    if rank := codes.castle_rank(block):
        return cell, pieces.castle(state.seat, rank)
    if block == Block.START:
        return cell, state.start_tiles[state.seat]
    return None


def _illegal_rejected(game: Game, seed: int) -> None:
    """Actions the engine refuses, the kernel refuses too, leaving the state as it was."""
    tables = kernel_rules(game.players, game.rules)
    rng = random.Random(seed)
    state, mirror = game.new_initial_state(), play.new_state(tables)
    while not state.is_terminal():
        legal = set(state.legal_actions())
        wrong = [a for a in range(-1, game.codes.size + 1) if a not in legal]
        before = [a.copy() for a in mirror]
        for action in rng.sample(wrong, 5):
            assert not play.apply_action(mirror, tables, action)
            assert all((a == b).all() for a, b in zip(mirror, before, strict=True))
        action = rng.choice(sorted(legal))
        state.apply_action(action)
        play.apply_action(mirror, tables, action)


@pytest.mark.parametrize(("edition", "variants", "players"), SETUPS)
def test_kernel_plays_as_the_engine(edition: str, variants: str, players: int) -> None:
    game = Game(players, rule_set(edition, variants))
    rng = random.Random(f"{edition}|{variants}|{players}")
    for _ in range(8):
        _play_both(game, rng)
    _illegal_rejected(game, players)


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "variants", "players"), SETUPS)
def test_kernel_plays_as_the_engine_many_games(edition: str, variants: str, players: int) -> None:
    """With the fast test's 8 a setup, more than 10,000 games in all (60 setups × 170)."""
    game = Game(players, rule_set(edition, variants))
    rng = random.Random(f"many|{edition}|{variants}|{players}")
    for _ in range(162):
        _play_both(game, rng)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_parameters_reach_the_kernel_as_data(players: int) -> None:
    """Start gold and epoch count no edition uses play as the engine plays them."""
    rng = random.Random(players)
    for _ in range(10):
        _play_both(Game(players, ODD_RULES), rng)


@pytest.mark.parametrize(("edition", "variants", "players"), SETUPS)
def test_random_games_are_the_oracles(edition: str, variants: str, players: int) -> None:
    """The kernel's random games are the pure-Python playout's, seed for seed (what keeps the
    lake's game ids), and replay through the engine to the gains they were played to."""
    game = Game(players, rule_set(edition, variants))
    seeds = [0, 1, 2**31 + 5, 2**40 + 3, *range(1000, 1030)]
    games = random_games(players, game.rules, seeds)
    for index, seed in enumerate(seeds):
        state = game.new_initial_state()
        random_playout(state, random.Random(seed), record=True)
        assert games.history(index).tolist() == state.history
        assert games.epoch_gains(index, players) == state.epoch_gains


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 - 1, 2**32, 2**63 + 11, 2**64 - 1])
def test_the_stream_is_pythons_random(seed: int) -> None:
    stream = new_stream()
    seed_stream(stream, new_stream(), np.uint64(seed))
    reference = random.Random(seed)
    assert [random_float(stream) for _ in range(2000)] == [reference.random() for _ in range(2000)]


def test_random_games_refuse_seeds_outside_64_bits() -> None:
    with pytest.raises(ValueError, match="seeds"):
        random_games(3, RuleSet(), [-1])


def test_score_boards_is_score_board_per_board() -> None:
    rng = random.Random(5)
    rules = RuleSet()
    boards = []
    for _ in range(40):
        board = list(rules.tiles) + [pieces.castle(rng.randrange(4), rng.randint(1, 4))] * 7
        rng.shuffle(board)
        boards.append(board)
    scores = score_boards(np.array(boards))
    for board, gold, impacts in zip(boards, scores.gold, scores.impacts, strict=True):
        expected = score_breakdown(board, 4, geometry())
        assert tuple(gold) == expected.gold
        assert {c: tuple(impacts[c]) for c in expected.impacts} == expected.impacts


def test_piece_codes_reach_the_kernel_as_data() -> None:
    """Renumber the pieces (swap the dragon's code with +1's, the wizard's with A's rank-1
    castle's): a board written in the new codes scores as before, so no code is compiled in."""
    tables = kernel_rules(3, RuleSet())
    swaps = {pieces.DRAGON: pieces.resource(1), pieces.WIZARD: pieces.castle(0, 1)}
    swaps |= {new: old for old, new in swaps.items()}
    renumbered = tables._replace(
        pieces=tables.pieces[[swaps.get(c, c) for c in range(len(tables.pieces))]]
    )
    board = [pieces.WIZARD, pieces.castle(0, 1), pieces.resource(1), pieces.DRAGON,
             pieces.castle(1, 2), pieces.resource(6)] + [0] * 24  # fmt: skip
    recoded = [swaps.get(c, c) for c in board]
    for table, cells in ((tables, board), (renumbered, recoded)):
        gold = np.zeros(pieces.MAX_SEATS, dtype=np.int64)
        scoring.score_gold(np.array(cells, dtype=np.int64), table, gold)
        assert gold[:3].tolist() == list(score_breakdown(board, 3, geometry()).gold)


def test_editing_kernel_source_changes_its_cache(tmp_path: Path) -> None:
    """The compiled code is cached under a hash of every kernel source: an edit anywhere in
    them (a slot number, the codec's blocks) cannot load code compiled from the old text."""
    copies = []
    for source in kernel.SOURCES:
        copy = tmp_path / f"{len(copies)}_{source.name}"
        shutil.copy(source, copy)
        copies.append(copy)
    before = kernel.fingerprint(copies)
    assert kernel.fingerprint(copies) == before
    for copy in copies:
        text = copy.read_text()
        copy.write_text(text + "\n")
        assert kernel.fingerprint(copies) != before, copy.name
        copy.write_text(text)
    assert kernel.cache_folder().name == f"compiled-{kernel.fingerprint(kernel.SOURCES)}"
    assert Path(__file__).parents[2] / "engine" / "actions.py" in kernel.SOURCES
