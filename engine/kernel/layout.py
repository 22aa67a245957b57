"""Named slots of the kernel's two flat int64 arrays, a state and the rules, and their accessors.

The rules array starts with a header (the slots below: parameters, then where each table of the
rules and each part of a state begins), followed by the tables (engine/kernel/tables.py builds
it from a RuleSet and engine/pieces.py). A state is one array: the scalars, then the board,
gold, castles, starting tiles held, supply and gains at the offsets the rules' header gives.
The compiled functions read these slots as constants and every other fact of the rules as data.
"""

from __future__ import annotations

from engine.kernel.compiled import inline

# Slots of the rules' header: the game's parameters.
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
MAX_SEATS = 12  # seats a state has room for (the castle_code table's rows)
LINES = 13  # every row then every column
LONGEST = 14  # cells of the longest line
ACTION_COUNT = 15  # one past the largest action id
RETURNING_RANKS = 16  # bit r - 1 set: castles of rank r go back to their owner after an epoch
GOLD_MINE_FACTOR = 17  # what a gold mine multiplies its segment's sum by
# Slots of the rules' header: where each table begins in the rules array.
CASTLE_COUNTS_AT = 18  # (RANKS,) castles of rank 1..4 each seat takes
FULL_SUPPLY_AT = 19  # (TILE_CODES,) copies of each tile code in a full supply
LINE_CELLS_AT = 20  # (LINES, LONGEST) the cells of every line, -1 padded
CELL_LINES_AT = 21  # (CELLS, 2) the row and the column holding each cell
NEIGHBOURS_AT = 22  # (CELLS, NEIGHBOURS) orthogonal neighbours, -1 padded
PIECES_AT = 23  # (codes, PIECE_COLUMNS) kind, value, seat, rank of every piece code
CASTLE_CODE_AT = 24  # (SEATS, RANKS) the piece code of each seat's castle of rank 1..4
ACTION_IDS_AT = 25  # (blocks + 1,) the first id of every action block, then ACTION_COUNT
ACTION_BLOCKS_AT = 26  # (ACTION_COUNT,) the block of every action id
# Slots of the rules' header: where each part of a state begins in the state array.
GOLD_AT = 27  # (SEATS,)
CASTLES_AT = 28  # (SEATS, RANKS) castles left of rank 1..4
HELD_AT = 29  # (SEATS,) each seat's starting tile, 0 for none
SUPPLY_AT = 30  # (TILE_CODES,) tiles left to draw (or deal, or choose)
GAINS_AT = 31  # (MAX_EPOCHS, SEATS) gold gained in every epoch
STATE_SIZE = 32
HEADER = 33

RANKS = 4  # castle ranks 1..4
NEIGHBOURS = 4  # room for a cell's orthogonal neighbours

# Columns of the pieces table, one row per piece code.
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

# Slots of a state's scalars, the first slots of the state array.
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
BOARD_AT = SCALARS  # (CELLS,) piece codes, 0 for empty: the board follows the scalars

# Phases (the PHASE slot).
DEAL = 0  # chance: the starting tile of the seat TO_MOVE
FIRST = 1  # chance: the first player of epoch 1
TURN = 2  # the seat to move picks castle, draw, starting tile or pass
DRAWN = 3  # chance: the tile just drawn
PLACE = 4  # the seat to move places the tile it drew (or chose, in no-luck)
OVER = 5


# ---------------------------------------------------------------- the rules' tables


@inline
def piece_kind(rules, piece: int) -> int:
    return rules[rules[PIECES_AT] + piece * PIECE_COLUMNS + KIND]


@inline
def piece_value(rules, piece: int) -> int:
    return rules[rules[PIECES_AT] + piece * PIECE_COLUMNS + VALUE]


@inline
def piece_seat(rules, piece: int) -> int:
    return rules[rules[PIECES_AT] + piece * PIECE_COLUMNS + SEAT]


@inline
def piece_rank(rules, piece: int) -> int:
    return rules[rules[PIECES_AT] + piece * PIECE_COLUMNS + RANK]


@inline
def castle_code(rules, seat: int, rank_index: int) -> int:
    """The piece code of the seat's castle of rank `rank_index + 1`."""
    return rules[rules[CASTLE_CODE_AT] + seat * RANKS + rank_index]


@inline
def first_id(rules, block: int) -> int:
    """The first action id of an action block (engine/actions.py's Block)."""
    return rules[rules[ACTION_IDS_AT] + block]


@inline
def line_cell(rules, line: int, position: int) -> int:
    """The cell at a position of a line, -1 past its end."""
    return rules[rules[LINE_CELLS_AT] + line * rules[LONGEST] + position]


@inline
def cell_line(rules, cell: int, axis: int) -> int:
    """The row (axis 0) or the column (axis 1) holding a cell, as a line number."""
    return rules[rules[CELL_LINES_AT] + cell * 2 + axis]


@inline
def neighbour(rules, cell: int, k: int) -> int:
    """A cell's k-th orthogonal neighbour, -1 for none."""
    return rules[rules[NEIGHBOURS_AT] + cell * NEIGHBOURS + k]


# ---------------------------------------------------------------- a state's parts


@inline
def board_of(state, rules):
    """The state's board (a view)."""
    return state[BOARD_AT : BOARD_AT + rules[CELLS]]


@inline
def gold_at(rules, seat: int) -> int:
    return rules[GOLD_AT] + seat


@inline
def castles_at(rules, seat: int, rank_index: int) -> int:
    return rules[CASTLES_AT] + seat * RANKS + rank_index


@inline
def held_at(rules, seat: int) -> int:
    return rules[HELD_AT] + seat


@inline
def supply_at(rules, tile: int) -> int:
    return rules[SUPPLY_AT] + tile


@inline
def gains_at(rules, epoch_index: int, seat: int) -> int:
    return rules[GAINS_AT] + epoch_index * rules[MAX_SEATS] + seat
