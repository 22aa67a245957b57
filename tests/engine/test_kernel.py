"""The compiled kernel, and its face (engine/state.py, engine/scoring.py), held to the readable
reference (tests/engine/reference/).

Node by node over seeded random games of every edition × variant × player count: the phase and
the seat to move, the legal actions, the chance outcomes with their probabilities, the gold
after every epoch; at every epoch's end the board's breakdown (gold, segments, every castle's
row and column gold with the wizard, every tile's impact on every seat). Then the games the
kernel plays with a policy per seat, the policies themselves (legal, blind to hidden tiles, a
known answer, incremental gains equal to rescoring), the batch entry points, and that nothing
of the rules is frozen into the compiled code.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from engine import kernel, pieces
from engine.actions import Block
from engine.agents.random_agent import RandomAgent
from engine.geometry import geometry
from engine.kernel import play, scoring
from engine.kernel.apprentice import shipped_model
from engine.kernel.batch import policy_games, random_games, score_boards
from engine.kernel.games import new_seats, policy_action
from engine.kernel.layout import (
    ACTION_IDS_AT,
    EMPTY,
    EPOCH,
    FULL_SUPPLY_AT,
    LINES,
    LONGEST,
    PENDING,
    PHASE,
    PIECE_COLUMNS,
    PIECES_AT,
    TILE_CODES,
    TO_MOVE,
)
from engine.kernel.layout import PLACE as KERNEL_PLACE
from engine.kernel.layout import TURN as KERNEL_TURN
from engine.kernel.policies import (
    POLICIES,
    PolicyScratch,
    action_values,
    best_tile_margin,
    draw_expectation,
    placement_gains,
    policy_scratch,
)
from engine.kernel.random_play import random_action
from engine.kernel.stream import new_stream
from engine.kernel.tables import KernelState, kernel_rules, piece_table, table
from engine.moves import IllegalMoveError
from engine.rules import EDITIONS, RuleSet, rule_set
from engine.scoring import score_breakdown as face_breakdown
from engine.state import Game
from engine.state import State as GameState
from tests.engine.reference.scoring import score_breakdown
from tests.engine.reference.state import CHANCE, PLACE, TERMINAL, TURN, State

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
# What a state shows of itself, compared between the face and the reference.
FIELDS = (
    "phase",
    "seat",
    "epoch",
    "empty",
    "supply_size",
    "pending_tile",
    "last_castle_placed",
    "next_first",
    "turn_order",
    "board",
    "gold",
    "epoch_gains",
    "castles",
    "castles_left",
    "start_tiles",
    "supply",
)


def _check_breakdown(board: list[int], players: int, rules: RuleSet) -> None:
    """The kernel's breakdown of one board equals the readable scoring's, item by item."""
    tables = kernel_rules(players, rules)
    geo = geometry(rules.rows, rules.columns)
    expected = score_breakdown(board, players, geo)
    assert face_breakdown(board, players, geo) == expected
    cells = len(board)
    gold = np.zeros(pieces.MAX_SEATS, dtype=np.int64)
    row_base, column_base, rank = np.zeros((3, cells), dtype=np.int64)
    impacts = np.zeros((cells, pieces.MAX_SEATS), dtype=np.int64)
    segments = np.zeros(
        (tables[LINES] * tables[LONGEST] * 2, scoring.SEGMENT_RANKS + pieces.MAX_SEATS),
        dtype=np.int64,
    )
    count = scoring.score_board(
        np.array(board, dtype=np.int64),
        tables,
        gold,
        row_base,
        column_base,
        rank,
        impacts,
        segments,
    )
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
    """Play one random game through the reference, the kernel and the kernel's face side by side,
    comparing every node; returns the plies."""
    tables = kernel_rules(game.players, game.rules)
    state = State(game)
    face = game.new_initial_state()
    packed = play.new_state(tables)
    mirror = KernelState.of(packed, tables)
    plies = 0
    while True:
        player = state.current_player()
        phase = int(mirror.scalars[PHASE])
        assert phase == state.phase
        if player >= 0:
            assert mirror.scalars[TO_MOVE] == player
        legal = state.legal_actions()
        assert play.legal_action_list(packed, tables) == legal
        assert face.current_player() == player and face.legal_actions() == legal
        if player == TERMINAL:
            break
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            assert play.chance_outcome_list(packed, tables) == outcomes
            assert face.chance_outcomes() == outcomes
        else:
            _check_observations(face, state)
        action = rng.choice(legal)
        epoch = state.epoch
        board = list(state.board)
        if placed := _placement(state, action):
            board[placed[0]] = placed[1]
        state.apply_action(action)
        assert play.apply_action(packed, tables, action)
        face.apply_action(action)
        plies += 1
        for name in FIELDS:
            assert getattr(face, name) == getattr(state, name), name
        assert list(mirror.board) == state.board
        assert list(mirror.gold[: game.players]) == state.gold
        if state.epoch != epoch or state.is_terminal():  # the epoch ended on `board`
            gains = mirror.gains[: len(state.epoch_gains), : game.players].tolist()
            assert gains == state.epoch_gains
            assert mirror.scalars[EPOCH] == state.epoch
            _check_breakdown(board, game.players, game.rules)
    return plies


def _check_observations(face: GameState, state: State) -> None:
    """Every seat's observation from the face equals the reference's, its public state too."""
    for seat in range(state.players):
        seen, expected = face.observation(seat), state.observation(seat)
        assert seen == expected
        for name in FIELDS:
            assert getattr(seen.public, name) == getattr(expected.public, name), name


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
    state, mirror, face = State(game), play.new_state(tables), game.new_initial_state()
    while not state.is_terminal():
        legal = set(state.legal_actions())
        wrong = [a for a in range(-1, game.codes.size + 1) if a not in legal]
        before = mirror.copy()
        for action in rng.sample(wrong, 5):
            assert not play.apply_action(mirror, tables, action)
            assert (mirror == before).all()
            with pytest.raises(IllegalMoveError) as expected:
                state.apply_action(action)
            with pytest.raises(IllegalMoveError, match=re.escape(str(expected.value))):
                face.apply_action(action)
            assert (face.kernel_state == before).all()
        action = rng.choice(sorted(legal))
        state.apply_action(action)
        play.apply_action(mirror, tables, action)
        face.apply_action(action)


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


def _replay(game: Game, history: list[int]) -> State:
    """Replay a kernel game through the reference, every action checked legal on the way."""
    state = State(game)
    for action in history:
        if state.is_chance_node():
            assert action in dict(state.chance_outcomes())
        else:
            assert action in state.legal_actions()
        state.apply_action(action)
    assert state.is_terminal()
    return state


@pytest.mark.parametrize(("edition", "variants", "players"), SETUPS)
def test_random_games_replay_through_the_engine(edition: str, variants: str, players: int) -> None:
    """The kernel's random games are legal engine games, played to the gains they report."""
    game = Game(players, rule_set(edition, variants))
    seeds = [0, 1, 2**31 + 5, 2**40 + 3, 2**64 - 1, *range(1000, 1030)]
    games = random_games(players, game.rules, seeds)
    for index in range(len(seeds)):
        state = _replay(game, games.history(index).tolist())
        assert games.epoch_gains(index, players) == state.epoch_gains


@pytest.mark.parametrize(("edition", "variants"), [(e, v) for e in EDITIONS for v in VARIANT_SETS])
def test_policy_games_replay_through_the_engine(edition: str, variants: str) -> None:
    """Greedy and heuristic seats choose only legal actions, in every edition and variant."""
    game = Game(3, rule_set(edition, variants))
    games = policy_games(3, game.rules, range(4), ("greedy", "heuristic", "random"))
    for index in range(4):
        state = _replay(game, games.history(index).tolist())
        assert games.epoch_gains(index, 3) == state.epoch_gains


def test_a_seed_is_one_game() -> None:
    """The same seeds give the same games, and all-random seats are `random_games`'s games."""
    rules = RuleSet()
    first = policy_games(2, rules, [5, 6], ("greedy", "random"))
    again = policy_games(2, rules, [5, 6], ("greedy", "random"))
    assert first.actions.tolist() == again.actions.tolist()
    assert first.history(0).tolist() != first.history(1).tolist()
    random_only = policy_games(2, rules, [5], ("random", "random"))
    assert random_games(2, rules, [5]).history(0).tolist() == random_only.history(0).tolist()


def test_the_random_agent_is_the_kernel_policy() -> None:
    """The Python random agent chooses, from its stream, what the compiled policy chooses from
    a copy of that stream on the same state (the policy is written once)."""
    game = Game(3)
    tables = kernel_rules(3, game.rules)
    agent = RandomAgent(17)
    stream = new_stream(17)
    state = game.new_initial_state()
    chance = random.Random(3)
    mirror = play.new_state(tables)
    while not state.is_terminal():
        if state.is_chance_node():
            state.play_chance(chance)
        else:
            seat = state.current_player()
            action = agent.choose(state.observation(seat), state.legal_actions())
            assert action == random_action(mirror, tables, stream)
            state.apply_action(action)
        play.apply_action(mirror, tables, state.history[-1])


def _first_ids(tables: np.ndarray) -> np.ndarray:
    """The first action id of every block, from the rules array."""
    return table(tables, ACTION_IDS_AT, (len(Block) + 1,))


def _kernel_position(seed: int) -> tuple[np.ndarray, int]:
    """A kernel state mid-epoch 1 (three seats, the seat to move in a turn, every opponent still
    holding its starting tile) and the seat to move."""
    tables = kernel_rules(3, RuleSet())
    rng = random.Random(seed)
    state = play.new_state(tables)
    start = range(int(_first_ids(tables)[Block.START]), int(_first_ids(tables)[Block.PLACE]))
    while True:
        if state[PHASE] == KERNEL_TURN and state[EMPTY] <= 21:
            return state, int(state[TO_MOVE])
        legal = [a for a in play.legal_action_list(state, tables) if a not in start]
        play.apply_action(state, tables, rng.choice(legal))


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic", "apprentice"])
def test_policies_never_read_hidden_information(policy: str) -> None:
    """Swap another seat's starting tile with a different tile of the supply: the same choice."""
    tables = kernel_rules(3, RuleSet())
    for seed in range(4):
        state, seat = _kernel_position(seed)
        other = (seat + 1) % 3
        hidden_swapped = state.copy()
        swapped = KernelState.of(hidden_swapped, tables)
        held = int(swapped.held[other])
        replacement = next(t for t in range(1, 17) if swapped.supply[t] and t != held)
        swapped.held[other] = replacement
        swapped.supply[replacement] -= 1
        swapped.supply[held] += 1
        choices = []
        for position in (state, hidden_swapped):
            seats = new_seats(tables, np.full(3, POLICIES[policy]), shipped_model())
            seats.stream[:] = new_stream(seed)
            choices.append(policy_action(POLICIES[policy], position, tables, seats))
        assert choices[0] == choices[1]


def test_greedy_places_a_hazard_in_the_leaders_lines() -> None:
    """Known answer worked by hand from rules.md: A (to move, 2 players) places a drawn -6; B's
    rank-3 castle on b2 earns 3 × the base of its row and of its column, so a -6 in either line
    (away from A's castle on e5) costs B 18 gold and A nothing: a margin of 18, the best."""
    game = Game(2)
    geo = game.geometry
    tables = kernel_rules(2, game.rules)
    b2, e5 = geo.parse_cell("b2"), geo.parse_cell("e5")
    packed = play.new_state(tables)
    state = KernelState.of(packed, tables)
    state.scalars[PHASE] = KERNEL_PLACE
    state.scalars[TO_MOVE] = 0
    state.scalars[PENDING] = pieces.hazard(6)
    state.board[b2] = pieces.castle(1, 3)
    state.board[e5] = pieces.castle(0, 1)
    state.scalars[EMPTY] = game.rules.cells - 2
    legal = np.array(play.legal_action_list(packed, tables), dtype=np.int64)
    values = np.zeros(len(legal), dtype=np.float64)
    unseen = table(tables, FULL_SUPPLY_AT, (tables[TILE_CODES],)).copy()
    action_values(packed, tables, unseen, legal, len(legal), 0.0, np.nan, values)

    def near(cell: int) -> set[int]:
        lines = set(geo.lines_through(cell))
        return {c for c in range(geo.cells) if lines & set(geo.lines_through(c))}

    first_place = int(_first_ids(tables)[Block.PLACE])
    best = {int(a) - first_place for a, v in zip(legal, values, strict=True) if v == 18.0}
    assert values.max() == 18.0
    assert best == near(b2) - near(e5) - {b2}


def test_incremental_gains_are_the_board_rescored() -> None:
    """Each tile's gains on each empty cell, from the segments it touches, equal scoring the
    whole board with and without it (random boards, every tile code left)."""
    rng = random.Random(9)
    rules = RuleSet()
    tables = kernel_rules(3, rules)
    for _ in range(30):
        board, tiles = _half_board(rng, rules)
        before = np.zeros(3, dtype=np.int64)
        scoring.score_gold(board, tables, before)
        for tile in set(tiles):
            for cell in np.flatnonzero(board == 0):
                after = np.zeros(3, dtype=np.int64)
                placed = board.copy()
                placed[cell] = tile
                scoring.score_gold(placed, tables, after)
                assert _gains(board, tables, int(cell), tile) == (after - before).tolist()


def test_the_segments_pay_what_the_board_scores() -> None:
    """The policies' segments (their base times each seat's castle ranks, summed) pay each seat
    what scoring the board pays it: the valuing takes the board's gold from them."""
    rng = random.Random(10)
    rules = RuleSet()
    tables = kernel_rules(3, rules)
    for _ in range(30):
        board = np.zeros(rules.cells, dtype=np.int64)
        cells = rng.sample(range(rules.cells), 20)
        for cell, tile in zip(cells[:10], rng.sample(rules.tiles, 10), strict=True):
            board[cell] = tile
        for cell in cells[10:]:
            board[cell] = pieces.castle(rng.randrange(3), rng.randint(1, 4))
        gold = np.zeros(3, dtype=np.int64)
        scoring.score_gold(board, tables, gold)
        scratch = policy_scratch(tables)
        count = _scan(board, tables, scratch)
        ranks, base = scratch.ranks[:count], scratch.base[:count]
        assert (base[:, None] * ranks).sum(axis=0).tolist() == gold.tolist()


def test_a_draw_is_worth_each_unseen_tiles_best_placement() -> None:
    """A draw's expectation (value tiles scaled from one unit per cell) is the mean, over the
    unseen tiles, of each one's best margin placed on its own (random boards, every seat)."""
    rng = random.Random(11)
    rules = RuleSet()
    tables = kernel_rules(3, rules)
    for _ in range(30):
        board, tiles = _half_board(rng, rules)
        unseen = np.bincount(tiles, minlength=int(tables[TILE_CODES])).astype(np.int64)
        scratch = _scanned(board, tables)
        wizard = scoring.wizard_cell(board, tables)
        scratch.totals[:] = rng.sample(range(40), 3)
        for seat in range(3):
            tiles = [tile for tile in range(len(unseen)) if unseen[tile]]
            each = [best_tile_margin(board, tables, tile, seat, wizard, scratch) for tile in tiles]
            expected = sum(np.array(each) * unseen[unseen > 0]) / unseen.sum()
            got = draw_expectation(board, tables, unseen, seat, wizard, scratch)
            assert got == expected


def _half_board(rng: random.Random, rules: RuleSet) -> tuple[np.ndarray, list[int]]:
    """A random board of 9 tiles and 7 castles of 3 seats, and the tiles left."""
    tiles = list(rules.tiles)
    rng.shuffle(tiles)
    board = np.zeros(rules.cells, dtype=np.int64)
    cells = rng.sample(range(rules.cells), 16)
    for cell in cells[:9]:
        board[cell] = tiles.pop()
    for cell in cells[9:]:
        board[cell] = pieces.castle(rng.randrange(3), rng.randint(1, 4))
    return board, tiles


def _scanned(board: np.ndarray, tables) -> PolicyScratch:
    """Policy scratch arrays holding the board's effective ranks and segments, as the policies
    cut them."""
    scratch = policy_scratch(tables)
    _scan(board, tables, scratch)
    return scratch


def _scan(board: np.ndarray, tables, scratch: PolicyScratch) -> int:
    """Fill the scratch with the board's effective ranks and segments; how many segments."""
    scoring.effective_ranks(board, tables, scratch.rank)
    segments = (scratch.of, scratch.stats, scratch.ranks, scratch.base)
    return scoring.scan_board(board, tables, scratch.rank, *segments)


def _gains(board: np.ndarray, tables, cell: int, tile: int) -> list[int]:
    """The policies' incremental gains of one placement."""
    scratch = _scanned(board, tables)
    placement_gains(board, tables, cell, tile, scoring.wizard_cell(board, tables), scratch)
    return scratch.gains.tolist()


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
    renumbered = tables.copy()
    piece_rows = table(renumbered, PIECES_AT, (len(piece_table()), PIECE_COLUMNS))
    piece_rows[:] = piece_rows[[swaps.get(c, c) for c in range(len(piece_rows))]]
    board = [
        pieces.WIZARD,
        pieces.castle(0, 1),
        pieces.resource(1),
        pieces.DRAGON,
        pieces.castle(1, 2),
        pieces.resource(6),
    ] + [0] * 24
    recoded = [swaps.get(c, c) for c in board]
    for rules_array, cells in ((tables, board), (renumbered, recoded)):
        gold = np.zeros(pieces.MAX_SEATS, dtype=np.int64)
        scoring.score_gold(np.array(cells, dtype=np.int64), rules_array, gold)
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
