"""Two rules as the arithmetic the lake applies to whole arrays of games at once: a seat's place
in the turn order and a castle's gold from a line. Each works on numbers and on numpy arrays."""

from __future__ import annotations


def turn_position(seat, first_seat, players):
    """A seat's place in the turn order, 1 for the first mover: turns pass clockwise, seat by
    seat, from the first mover."""
    return (seat - first_seat) % players + 1


def castle_gold(segment_base, rank):
    """The gold a castle scores from one line: its segment's base times its effective rank."""
    return segment_base * rank
