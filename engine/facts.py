"""Two rules as plain arithmetic, written once: the turn order and a castle's gold from a line.
The lake applies them to whole numpy arrays of games; the kernel compiles these same functions.
"""

from __future__ import annotations


def seat_at(first_seat, position, players):
    """The seat `position` places after `first_seat` in the turn order: turns pass clockwise,
    seat by seat."""
    return (first_seat + position) % players


def turn_position(seat, first_seat, players):
    """A seat's place in the turn order, 1 for the first mover (`seat_at`'s inverse, from 1)."""
    return (seat - first_seat) % players + 1


def castle_gold(segment_base, rank):
    """The gold a castle scores from one line: its segment's base times its effective rank."""
    return segment_base * rank
