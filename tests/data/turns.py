"""What the engine says of one turn, for the tests of the lake's move columns."""

from __future__ import annotations

from engine.turns import Turn


def most_legal_actions(turn: Turn) -> int:
    """The most legal actions the mover had at one of the turn's decisions (its start, and for
    a draw where the tile goes), replaying the turn's actions from the state before it."""
    state, most = turn.before.clone(), 0
    for action in turn.actions:
        if state.current_player() >= 0:
            most = max(most, len(state.legal_actions()))
        state.apply_action(action)
    return most
