"""What each column of the lake's documented views means, in one line (as data/README.md says).

The SQL console's schema browser shows these beside each column's type.
"""

from __future__ import annotations

from data.schema import CELL_NAMES, GRID
from engine import pieces

_SEATS = f"{pieces.SEAT_LETTERS[0]}–{pieces.SEAT_LETTERS[pieces.MAX_SEATS - 1]}"

_WHERE = {
    "batch_id": "the batch the row was written in (from its folder name)",
    "source": "simulated or recorded (from its folder name)",
}
_CELL = {
    "cell": f"board cell, {CELL_NAMES[0]} … (f5 on the 5 × 6 board, {CELL_NAMES[-1]} on 8 × 8)",
    "cell_row": f"the cell's row, 1–{GRID.rows}",
    "cell_column": f"the cell's column, 1–{GRID.columns}",
}

_PLACED = {
    "tile": "the tile placed (+3, MT, DR …)",
    "placer": "the seat that placed it",
    "placed_by": "drawn or start (a starting tile)",
    "turn": "the turn of the epoch it was placed on",
    "timing": "fifth of the epoch it was placed in, 1–5",
}

VIEW_MEANINGS = {
    "games": "one row per game",
    "rule_sets": "one row per rule set the games follow",
    "seats": "one row per seat of a game",
    "moves": "one row per turn (ply)",
    "epoch_scores": "one row per seat and epoch",
    "castles": "one row per castle on the final board of an epoch",
    "tile_impacts": "one row per placed tile and seat",
    "tile_placements": "one row per placed tile, its impact on each seat in four columns",
    "cells": "the cells of the boards the games are played on",
    "pieces": "one row per piece the lake stores, as the engine names it",
    "edition_tiles": "one row per edition and tile kind of its tile set",
}
AGGREGATE_MEANING = "per-batch counts, sums and sums of squares the dashboard's queries read"

COLUMN_MEANINGS: dict[str, dict[str, str]] = {
    "games": {
        "game_id": "hash of rules, player count and every action: a game is stored once",
        "edition": "rules edition",
        "variant": "'' or the variants, comma-separated",
        "players": "number of players, 2–4",
        "seed": "the simulation's seed (NULL for a recorded game)",
        "first_seat": "the seat that moves first",
        "plies": "turns in the game",
        "created": "when the game was stored",
        "engine_version": "the engine version that wrote it",
        "tags": "the record's tags (a MAP)",
        "deals": "the starting tiles dealt, seat by seat, epoch by epoch",
        "unseen_starts": "(epoch, seat) of starting tiles recorded as ? and never placed",
        "rules": "the hash of its rule set (see rule_sets)",
        **_WHERE,
    },
    "rule_sets": {
        "rules": "a hash of the rules (not of their name): what games.rules holds",
        "name": "the rule set's name",
        "text": "the rule set as a complete rule-set file (TOML)",
        "rows": "the board's rows",
        "columns": "the board's columns",
        "tiles": "the tile kinds of its tile set",
    },
    "seats": {
        "game_id": "the game",
        "seat": f"seat letter, {_SEATS}",
        "player": "the player's name",
        "agent": "the agent that played the seat (NULL for people)",
        "turn_position": "1 = first mover of epoch 1",
        "final_gold": "gold at the end of the game",
        "rank": "1 = most gold, ties share the average",
        "win_share": "1/k for one of k seats tied for most gold, else 0 (sums to 1 a game)",
        "utility": "1 − 2·(rank − 1)/(players − 1): 1 for first, −1 for last",
        "margin": "final gold minus the best other seat's",
    },
    "moves": {
        "game_id": "the game",
        "epoch": "epoch, from 1",
        "ply": "turn number in the game, from 1",
        "turn": "turn number in the epoch, from 1",
        "seat": "the seat moving",
        "kind": "castle, draw, start or pass",
        **_CELL,
        "piece": "the piece placed, as a token (+3, MT, B2 …)",
        "castle_rank": "a castle's rank, 1–4",
        "tile_value": "a placed tile's value",
        "action": "the integer action that completes the turn",
        "legal_actions": "the most legal actions the mover had at one decision of the turn",
        "gold_before": "the mover's gold before the turn",
    },
    "epoch_scores": {
        "game_id": "the game",
        "epoch": "epoch, from 1",
        "seat": f"seat letter, {_SEATS}",
        "gained": "gold the seat gained in the epoch",
        "gold_after": "the seat's gold after the epoch",
    },
    "castles": {
        "game_id": "the game",
        "epoch": "epoch, from 1",
        "seat": "the castle's owner",
        **_CELL,
        "rank": "the castle's printed rank, 1–4",
        "effective_rank": "its rank with the wizard bonus",
        "turn": "the turn of the epoch it was placed on",
        "row_gold": "gold it scored in its row",
        "column_gold": "gold it scored in its column",
        "gold": "row gold plus column gold",
    },
    "tile_impacts": {
        "game_id": "the game",
        "epoch": "epoch, from 1",
        **_CELL,
        **_PLACED,
        "seat": "the seat whose gold is measured",
        "impact": "the seat's epoch gold with the tile minus without it",
    },
    "tile_placements": {
        "game_id": "the game",
        "epoch": "epoch, from 1",
        **_CELL,
        **_PLACED,
        **{
            f"impact_{seat.lower()}": f"the tile's impact on seat {seat}"
            for seat in pieces.SEAT_LETTERS[: pieces.MAX_SEATS]
        },
    },
    "cells": {
        **_CELL,
        "mirror_cell": "the cell's mirror class, named by its first cell in reading order: "
        "the cells that left-right and top-bottom reflection map onto each other",
    },
    "pieces": {
        "code": "the engine's code of the piece (tiles in the engine's order)",
        "piece": "its token, as `moves.piece` shows it",
        "piece_kind": "castle, resource, hazard, or a special tile's token",
        "tile_value": "a tile's face value (0 for a special tile; NULL for a castle)",
    },
    "edition_tiles": {
        "edition": "rules edition",
        "tile": "a tile kind of the edition's tile set, as a token",
        "copies": "how many of it the tile set holds",
    },
}
