"""The action codec: every id decodes to the block and place it was encoded from."""

from __future__ import annotations

import pytest

from engine import pieces
from engine.actions import CASTLE_BLOCKS, Block, action_codes


@pytest.mark.parametrize("cells", [30, 20, 36])
def test_every_id_round_trips(cells: int) -> None:
    codes = action_codes(cells)
    encoded = {
        **{
            codes.castle(rank, c): (CASTLE_BLOCKS[rank - 1], c)
            for rank in range(1, 5)
            for c in range(cells)
        },
        **{codes.start(c): (Block.START, c) for c in range(cells)},
        **{codes.place_drawn(c): (Block.PLACE, c) for c in range(cells)},
        codes.draw: (Block.DRAW, 0),
        codes.pass_: (Block.PASS, 0),
        **{codes.choose(t): (Block.CHOOSE, t) for t in range(pieces.CASTLE_BASE)},
    }
    assert sorted(encoded) == list(range(codes.size))
    for action, decoded in encoded.items():
        assert codes.decode(action) == decoded


def test_the_standard_boards_ids_are_the_lakes() -> None:
    """The ids of the 30-cell board, as engine/actions.py's docstring (and every stored game)
    has them."""
    codes = action_codes(30)
    assert [codes.castle(r, 7) for r in (1, 2, 3, 4)] == [7, 37, 67, 97]
    assert (codes.start(3), codes.place_drawn(29), codes.draw, codes.pass_) == (123, 179, 180, 181)
    assert codes.choose(pieces.WIZARD) == 182 + pieces.WIZARD


@pytest.mark.parametrize("action", [-1, 214, 1000])
def test_ids_outside_every_block_are_refused(action: int) -> None:
    with pytest.raises(ValueError, match="not an action id"):
        action_codes(30).decode(action)


def test_castle_rank_names_castle_blocks_only() -> None:
    assert [action_codes(30).castle_rank(b) for b in Block] == [1, 2, 3, 4, 0, 0, 0, 0, 0]
