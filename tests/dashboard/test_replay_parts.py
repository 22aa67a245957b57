"""The Replay and Record pages' parts without Streamlit: timeline, boards, charts, comments."""

from __future__ import annotations

import polars as pl
import pytest

from dashboard.board_chart import board_chart, board_frame
from dashboard.record_charts import clickable_board, clicked_cell
from dashboard.replay_charts import (
    evaluation_chart,
    evaluation_frame,
    gold_at,
    gold_chart,
    selected_ply,
    spec_without_rows,
)
from dashboard.review import (
    MOMENT_SCHEMA,
    best_label,
    costly_moves,
    first_mover,
    key_moments,
    luck_verdict,
    with_review_comments,
)
from dashboard.text import plain
from dashboard.timeline import Timeline
from engine import pieces
from engine.record import record_from_state, write_record
from engine.state import Game
from tests.random_games import random_game


def _game(players: int = 3, seed: int = 1) -> tuple[Game, list[int]]:
    game = Game(players)
    state = random_game(game, seed)
    return game, state.history


def test_timeline_follows_the_game_to_its_final_gold() -> None:
    game, actions = _game()
    final = Game(3).new_initial_state()
    for action in actions:
        final.apply_action(action)
    timeline = Timeline(game, actions)
    assert timeline.positions[-1].gold == tuple(final.gold)
    assert timeline.epoch_end_plies() == [30, 60, 90]
    assert all(timeline.positions[p].board.count(pieces.EMPTY) == 0 for p in (30, 60, 90))
    assert timeline.breakdown(30).gold == tuple(final.epoch_gains[0])
    assert timeline.breakdown(29) is None
    assert timeline.gold_frame.height == 91 * 3


def test_board_frame_names_pieces_by_edition() -> None:
    board = [0] * 30
    board[0], board[1], board[2] = pieces.castle(1, 3), pieces.MOUNTAIN, pieces.DRAGON
    frame = board_frame(board, Game(2).geometry, "cosmolancer", last_cell=0, best=(5, "A4"))
    rows = {row["cell"]: row for row in frame.iter_rows(named=True)}
    assert rows["a1"]["label"] == "B3" and rows["a1"]["last"]
    assert rows["b1"]["name"] == "meteor shower" and rows["c1"]["name"] == "black hole"
    assert rows["f1"]["best"] and rows["f1"]["label"] == "A4"
    assert board_chart(frame).to_dict()["layer"]


def test_gold_chart_and_click_selection() -> None:
    game, actions = _game(2)
    timeline = Timeline(game, actions)
    assert gold_chart(timeline.gold_frame, 10, timeline.epoch_starts()).to_dict()
    assert selected_ply({"selection": {"jump": [{"ply": 12, "seat": "A"}]}}) == 12
    assert selected_ply({"selection": {"jump": []}}) is None


def test_the_evaluation_graph_moves_a_players_line_only_at_its_own_turns() -> None:
    """Stored rows hold each seat's win share from the mover's view (the other seat gets the
    rest), which zig-zagged every ply: a player's step line holds its own latest judgement."""
    review = pl.DataFrame(
        {
            "ply": [1, 2, 3, 4],
            "seat": ["A", "B", "A", "B"],
            "move": ["C1 a1", "C1 b1", "d+1 c1", "pass"],
            "expected": [[0.6, 0.4], [0.45, 0.55], [0.7, 0.3], [0.2, 0.8]],
            "quality": ["best", "mistake", "good", "best"],
        }
    )
    players = ["Ann (A)", "Bob (B)"]
    frame = evaluation_frame(review, players)
    line = {p: frame.filter(player=p).sort("ply") for p in players}
    assert line["Ann (A)"]["win_share"].to_list() == [0.6, 0.6, 0.7, 0.7]
    assert line["Bob (B)"]["ply"].to_list() == [2, 3, 4]  # from its first turn on
    assert line["Bob (B)"]["win_share"].to_list() == [0.55, 0.55, 0.8]
    movers = frame.filter("mover")
    expected = list(zip([1, 2, 3, 4], players * 2, strict=True))
    assert movers.select("ply", "player").rows() == expected
    spec = evaluation_chart(frame, players, 0, [1], pl.DataFrame(schema=MOMENT_SCHEMA)).to_dict()
    line_layer = next(layer for layer in spec["layer"] if layer["mark"].get("type") == "line")
    assert line_layer["mark"]["interpolate"] == "step-after"
    assert line_layer["encoding"]["color"]["scale"]["domain"] == players


def test_key_moments_are_the_three_costliest_moves_and_the_lead_changes() -> None:
    """A's expected share by ply: 0.55, 0.6, 0.45, 0.3, 0.3, 0.5, 0.6 (B the rest). The lead
    goes to B at ply 3 and back to A at ply 7 (ply 6 is even: nobody leads); the flagged
    moves' losses are 0.15 (ply 2), 0.06 (3), 0.30 (4) and 0.08 (5): the three largest are
    plies 4, 2 and 5, each marked on its mover's line."""
    shares = [0.55, 0.6, 0.45, 0.3, 0.3, 0.5, 0.6]
    review = pl.DataFrame(
        {
            "ply": list(range(1, 8)),
            "seat": ["A", "B"] * 3 + ["A"],
            "move": ["C1 a1", "C1 b1", "d+1 c1", "pass", "C2 a2", "C2 b2", "C3 c2"],
            "expected": [[a, 1 - a] for a in shares],
            "loss": [0.0, 0.15, 0.06, 0.30, 0.08, 0.0, 0.03],
            "gold_loss": [0.0] * 7,
            "decided": [False] * 7,
            "quality": ["best", "mistake", "inaccuracy", "blunder", "inaccuracy", "best", "good"],
        }
    )
    players = ["Ann (A)", "Bob (B)"]
    moments = key_moments(review, players)
    assert moments.select("ply", "player", "moment").rows() == [
        (2, "Bob (B)", "largest loss"),
        (3, "Bob (B)", "lead change"),
        (4, "Bob (B)", "largest loss"),
        (5, "Ann (A)", "largest loss"),
        (7, "Ann (A)", "lead change"),
    ]
    assert moments["win_share"].to_list() == pytest.approx([0.4, 0.55, 0.7, 0.3, 0.6])
    assert moments["label"][0] == "Bob (B) C1 b1: mistake, loses 0.150 win share"
    frame = evaluation_frame(review, players)
    spec = evaluation_chart(frame, players, 0, [1], moments).to_dict()
    marked = next(layer for layer in spec["layer"] if "shape" in layer.get("encoding", {}))
    assert marked["encoding"]["shape"]["scale"]["domain"] == ["largest loss", "lead change"]
    rows = spec["datasets"][marked["data"]["name"]]
    assert [(row["ply"], row["moment"]) for row in rows] == moments.select("ply", "moment").rows()


def test_chart_specs_leave_out_only_the_rows_of_a_ply() -> None:
    game, actions = _game(2)
    timeline = Timeline(game, actions)
    board = spec_without_rows(
        board_chart(board_frame(timeline.positions[5].board, game.geometry, "kingdoms-2011"))
    )
    assert "data" not in board and not board["datasets"] and "config" not in board
    gold = spec_without_rows(gold_chart(timeline.gold_frame, 10, timeline.epoch_starts()))
    kept = {layer["data"]["name"] for layer in gold["layer"] if "data" in layer}
    assert "data" not in gold and set(gold["datasets"]) == kept
    assert len(gold["datasets"]) == 2  # the epochs and every ply's gold; not ply 10's
    assert gold_at(timeline.gold_frame, 10)["gold"].to_list() == list(timeline.positions[10].gold)


def test_best_labels_and_review_comments() -> None:
    assert best_label("C4 b2", 1) == "B4" and best_label("d-5 c3", 0) == "−5"
    game, actions = _game(2, seed=3)
    state = Game(2).new_initial_state()
    for action in actions:
        state.apply_action(action)
    text = write_record(record_from_state(state, {}))
    review = pl.DataFrame(
        {
            "ply": [1, 2],
            "quality": ["best", "blunder"],
            "loss": [0.0, 0.3],
            "gold_loss": [0.0, 12.0],
            "decided": [False, False],
            "best_move": ["x", "C4 a1"],
        }
    )
    commented = with_review_comments(text, review)
    assert "; best" in commented
    assert "; blunder, loses 0.300 win share; best C4 a1" in commented


def _row(
    ply: int, quality: str, loss: float, gold_loss: float = 1.0, decided: bool = False
) -> dict:
    return {
        "ply": ply,
        "seat": "A",
        "move": "C1 a1",
        "quality": quality,
        "loss": loss,
        "gold_loss": gold_loss,
        "decided": decided,
    }


def test_costly_moves_go_largest_loss_first_with_one_loss_each() -> None:
    """A decided move's loss is its gold at engine.evaluate's WIN_SHARE_PER_GOLD (0.01): 30 gold
    is a loss of 0.300 and outranks 0.25; an open game's move shows its win share alone."""
    review = pl.DataFrame(
        [
            _row(3, "inaccuracy", 0.08),
            _row(9, "good", 0.04),  # not costly: left out
            _row(20, "mistake", 0.15),
            _row(31, "blunder", 0.25, gold_loss=4.0),
            _row(40, "blunder", 0.3, gold_loss=30.0, decided=True),
        ]
    )
    listed = costly_moves(review)
    assert [ply for ply, _ in listed] == [40, 31, 20, 3]
    assert listed[1][1] == "ply 31 · A C1 a1 · blunder: loses 0.250 win share"
    assert listed[0][1].endswith(
        "loses 0.300 win share (30.0 gold; decided: judged by gold lost, 1 gold = 0.01)"
    )


def test_the_first_mover_is_named_by_seat_not_by_agent() -> None:
    assert first_mover("A", "Mia", None) == "A Mia moves first"
    assert first_mover("A", "[Mia](x)", None) == f"A {plain('[Mia](x)')} moves first"
    played = first_mover("B", "mcts-300", "mcts-300")
    assert played == f"B moves first (played by the {plain('mcts-300')} agent)"


def test_the_record_board_marks_the_chosen_cell_and_reads_a_click() -> None:
    frame = board_frame([0] * 30, Game(2).geometry, "kingdoms-2011")
    spec = clickable_board(frame, "c2").to_dict()
    assert [p["name"] for p in spec["params"]] == ["cell"]
    rows = spec["datasets"][spec["data"]["name"]]
    assert [row["cell"] for row in rows if row["chosen"]] == ["c2"]
    assert clicked_cell({"selection": {"cell": [{"cell": "d4"}]}}) == "d4"
    assert clicked_cell({"selection": {"cell": []}}) is None


def _luck(luck: float, skill: float, **costly: int) -> dict:
    counts = {quality: costly.get(quality, 0) for quality in ("inaccuracy", "mistake", "blunder")}
    return {"luck": luck, "skill": skill, "result": 0.0, "adjusted": -luck, **counts}


@pytest.mark.parametrize(
    ("row", "line"),
    [
        (
            _luck(-0.31, 0.12, mistake=2),
            "B lost 0.31 of a win to the tiles and 0.12 to their moves (two mistakes): a "
            "result of 0.00 of a win, 0.31 without the luck.",
        ),
        (
            _luck(0.2, 0.4, blunder=1, mistake=12, inaccuracy=3),
            "B gained 0.20 of a win from the tiles and 0.40 to their moves (one blunder, 12 "
            "mistakes and three inaccuracies): a result of 0.00 of a win, -0.20 without the luck.",
        ),
        (
            _luck(0.001, 0.0),
            "B broke even on the tiles and nothing to their moves: a result of 0.00 of a win, "
            "0.00 without the luck.",
        ),
    ],
)
def test_the_luck_verdict_reads_the_tiles_then_the_moves(row: dict, line: str) -> None:
    assert luck_verdict("B", row) == line
