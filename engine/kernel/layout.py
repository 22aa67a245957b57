"""Named slots of the kernel's flat arrays: rule parameters, piece effects, state scalars, phases.

The compiled functions read these as constants; every other fact of the rules reaches them as
data (engine/kernel/tables.py builds it from a RuleSet and engine/pieces.py).
"""

from __future__ import annotations

# Slots of `KernelRules.params`.
PLAYERS = 0
CELLS = 1
ROWS = 2
COLUMNS = 3
EPOCHS = 4  # epochs of a game (last-castle: until someone places their last castle)
START_GOLD = 5
NO_LUCK = 6  # 1 when every tile is face up and chosen
LAST_CASTLE = 7
SCORE_AS_YOU_GO = 8
STARTING_TILES = 9  # 1 when each seat is dealt a starting tile every epoch
MAX_EPOCHS = 10  # the most epochs a game can last (the size of the gains table)
TILE_CODES = 11  # tile codes are 1 … TILE_CODES - 1
PARAMS = 12

# Columns of `KernelRules.pieces`, one row per piece code.
KIND = 0
VALUE = 1  # face value of a resource (+) or hazard (-) tile, 0 otherwise
SEAT = 2  # a castle's seat
RANK = 3  # a castle's rank
PIECE_COLUMNS = 4

# Piece kinds (the KIND column).
NONE = 0  # an empty cell, or a code that names no piece
VALUE_TILE = 1
MOUNTAIN = 2
DRAGON = 3
GOLD_MINE = 4
WIZARD = 5
CASTLE = 6

# Slots of `KernelState.scalars`.
EPOCH = 0  # 1-based
PHASE = 1
TO_MOVE = 2  # the seat to move, or to be dealt its starting tile
PENDING = 3  # the tile drawn (or chosen) and not placed yet
EMPTY = 4  # empty cells
SUPPLY_SIZE = 5
LAST_PLACED = 6  # 1 once some seat has placed its last castle
ORDER_FIRST = 7  # the seat that moved first this epoch (turn order runs clockwise from it)
NEXT_FIRST = 8  # who moves first once the deal is done; -1: a chance outcome
SCALARS = 9

# Phases (the PHASE slot).
DEAL = 0  # chance: the starting tile of the seat TO_MOVE
FIRST = 1  # chance: the first player of epoch 1
TURN = 2  # the seat to move picks castle, draw, starting tile or pass
DRAWN = 3  # chance: the tile just drawn
PLACE = 4  # the seat to move places the tile it drew (or chose, in no-luck)
OVER = 5
