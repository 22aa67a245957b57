"""Conformance of the game state over many seeded random games, per player count."""

import random
from collections import Counter

import pytest

from engine import pieces
from engine.kernel import play
from engine.kernel.layout import ORDER_FIRST
from engine.rules import RuleSet, rule_set
from engine.state import CHANCE, TERMINAL, Game, State
from engine.turns import final_state
from tests.random_games import random_game, random_games

GAMES_PER_COUNT = 1000


def _tiles_in_play(state: State) -> Counter:
    """Every tile of the epoch wherever it is: supply, starting tiles, board, hand."""
    tiles = Counter({t: n for t, n in enumerate(state.supply) if n})
    tiles.update(t for t in state.start_tiles if t)
    tiles.update(p for p in state.board if pieces.is_tile(p))
    if state.pending_tile:
        tiles[state.pending_tile] += 1
    return tiles


def _castles_owned(state: State, seat: int) -> list[int]:
    """Castles of a seat in hand plus on the board, by rank."""
    owned = list(state.castles[seat])
    for piece in state.board:
        if pieces.is_castle(piece) and pieces.castle_seat(piece) == seat:
            owned[pieces.castle_rank(piece) - 1] += 1
    return owned


def _play_checked(game: Game, rng: random.Random) -> State:
    """A random game through the public API, checking the invariants at every node."""
    state = game.new_initial_state()
    full_set = Counter(game.rules.tiles)
    epoch = 1
    epoch_order_gold = None
    while not state.is_terminal():
        assert _tiles_in_play(state) == full_set
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            state.play_chance(rng)
        else:
            actions = state.legal_actions()
            assert actions, "a non-terminal state must offer an action"
            assert actions == sorted(actions)
            if actions == [game.codes.pass_]:
                assert not state.can_act(player)
            else:
                assert game.codes.pass_ not in actions
            state.apply_action(rng.choice(actions))
        if state.epoch != epoch and not state.is_terminal():
            epoch = state.epoch
            # Rank-1 castles came back (all castles leave in last-castle).
            for seat in range(game.players * (not game.rules.last_castle)):
                assert state.castles[seat][0] == game.rules.castles(game.players)[0]
            epoch_order_gold = (list(state.gold), list(state.turn_order))
        if epoch_order_gold and state.current_player() >= 0 and state.board.count(0) == 30:
            gold, order = epoch_order_gold
            richest = max(gold)
            assert gold[order[0]] == richest
            epoch_order_gold = None
    assert state.current_player() == TERMINAL
    return state


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_rules(players: int) -> None:
    game = Game(players)
    rng = random.Random(players)
    for _ in range(GAMES_PER_COUNT):
        state = _play_checked(game, rng)
        assert len(state.epoch_gains) == 3
        assert state.returns() == [
            50 + sum(gains[seat] for gains in state.epoch_gains) for seat in range(players)
        ]
        # Higher ranks are spent for good: a seat never placed more than it had.
        for seat in range(players):
            assert all(count >= 0 for count in state.castles[seat])


def test_first_player_of_later_epochs_is_the_richest_with_the_tie_rule() -> None:
    """Tie for most gold: the earliest of the tied seats in the last epoch's turn order."""
    game = Game(3)
    state = game.new_initial_state()
    state.parts.gold[:3] = [60, 70, 70]
    state.parts.scalars[ORDER_FIRST] = 2  # turn order C, A, B
    assert play.richest_first(state.kernel_state, game.kernel_rules) == 2
    state.parts.scalars[ORDER_FIRST] = 0  # turn order A, B, C
    assert play.richest_first(state.kernel_state, game.kernel_rules) == 1


def test_rank_one_castles_return_and_higher_ranks_do_not() -> None:
    game = Game(2)
    state = game.new_initial_state()
    rng = random.Random(5)
    placed = Counter()
    while state.epoch == 1:
        if state.is_chance_node():
            state.play_chance(rng)
            continue
        before = [list(c) for c in state.castles]
        seat = state.current_player()
        state.apply_action(rng.choice(state.legal_actions()))
        for rank in range(4):
            placed[(seat, rank)] += before[seat][rank] - state.castles[seat][rank]
    start = game.rules.castles(2)
    for seat in range(2):
        assert state.castles[seat][0] == start[0]
        for rank in range(1, 4):
            assert state.castles[seat][rank] == start[rank] - placed[(seat, rank)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_are_legal_games(players: int) -> None:
    """The random games' actions replay through the state to the gains they were played to."""
    game = Game(players)
    games = random_games(game, range(100 * players, 100 * players + 300))
    for index in range(300):
        state = final_state(game, games.history(index).tolist())
        assert state.is_terminal()
        assert state.epoch_gains == games.epoch_gains(index, players)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_same_seed_same_game(seed: int) -> None:
    assert random_game(Game(3), seed).history == random_game(Game(3), seed).history


@pytest.mark.parametrize(
    "rules",
    [
        rule_set("kingdoms-2002"),
        rule_set("heller-pfennig"),
        rule_set("cosmolancer"),
        rule_set(variants="no-luck"),
        rule_set(variants="last-castle"),
        rule_set(variants="score-as-you-go"),
        rule_set("cosmolancer", "no-luck,score-as-you-go"),
    ],
    ids=lambda r: f"{r.edition}+{r.variant_text() or 'standard'}",
)
def test_editions_and_variants_play_to_the_end(rules: RuleSet) -> None:
    for players in (2, 3, 4):
        game = Game(players, rules)
        for seed in range(50):
            state = _play_checked(game, random.Random(seed))
            assert state.returns() == [
                50 + sum(gains[seat] for gains in state.epoch_gains) for seat in range(players)
            ]


def test_editions_differ_only_where_the_spec_says() -> None:
    assert len(rule_set().tiles) == 23 and pieces.WIZARD in rule_set().tiles
    for edition in ("kingdoms-2002", "heller-pfennig", "cosmolancer"):
        assert len(rule_set(edition).tiles) == 22 and pieces.WIZARD not in rule_set(edition).tiles
    assert rule_set("cosmolancer").display_names["DR"] == "black hole"


def test_no_luck_has_no_starting_tiles_and_chooses_tiles() -> None:
    game = Game(2, rule_set(variants="no-luck"))
    state = game.new_initial_state()
    assert state.current_player() == CHANCE  # the first player only
    state.apply_action(0)
    actions = state.legal_actions()
    assert game.codes.draw not in actions
    assert game.codes.choose(pieces.WIZARD) in actions
    assert not any(state.start_tiles)


def test_last_castle_ends_after_the_epoch_of_someones_last_castle() -> None:
    game = Game(2, rule_set(variants="last-castle"))
    for seed in range(30):
        state = random_game(game, seed)
        assert state.is_terminal()
        assert min(state.castles_left) == 0


def test_score_as_you_go_scores_lines_as_they_fill() -> None:
    game = Game(2, rule_set(variants="score-as-you-go"))
    state = game.new_initial_state()
    for tile in (pieces.resource(5), pieces.resource(1)):
        state.apply_action(tile)
    state.apply_action(0)  # A moves first
    codes = game.codes
    # A castle on a1, then B fills the rest of row 1 with castles and tiles.
    state.apply_action(codes.castle(1, 0))  # A1 a1
    state.apply_action(codes.start(1))  # B's +1 on b1
    state.apply_action(codes.start(2))  # A's +5 on c1
    for cell in (3, 4, 5):
        state.apply_action(codes.castle(1, cell))
    # Row 1 is full: A1 +1 +5 B1 A1 B1 → base 6: A rank 2 → 12, B rank 2 → 12.
    assert state.epoch_gains[0] == [12, 12]
    assert state.gold == [62, 62]
