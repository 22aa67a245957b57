"""One-line definitions of the figures the pages and the comparison's report offer, as the
metrics definitions give them: the help text of every metric selector, the caption beside every
figure and the report's list of what its figures are."""

from __future__ import annotations

COUNTERFACTUAL = (
    "the seat's epoch gold with the board as it ended, minus the same with that tile's space "
    "left empty"
)

CASTLE_YIELD = (
    "Mean gold a castle placed on the cell earned in its epoch (row part + column part, wizard "
    "bonus included)."
)
CASTLE_YIELD_PER_RANK = (
    "Castle yield divided by the castle's effective rank (wizard bonus included)."
)
TILE_SWING = {
    "placer": (
        "Mean counterfactual impact on the placer of the tiles placed on the cell: "
        f"{COUNTERFACTUAL}."
    ),
    "opponents": (
        "Mean counterfactual impact on each opponent of the tiles placed on the cell: "
        f"{COUNTERFACTUAL}."
    ),
    "net": (
        "Net swing of the tiles placed on the cell: impact on the placer minus the mean impact "
        "on an opponent, per placement."
    ),
}
OCCUPANCY = "Share of epochs in which the cell held {piece} when the epoch was scored."
FILL_TIMING = (
    "Mean turn of the epoch at which the cell filled, as a fraction of the epoch's turns "
    "(0 = first turn, 1 = last): early cells against late cells."
)
WIN_ASSOCIATION = (
    "Mean win share of the owners of the castles on the cell, minus the same mean over every "
    "castle (weighted by castle, so that it reads 0 where the cell cannot matter)."
)

TILE_IMPACT = {
    "placer": f"Mean counterfactual impact of the tile on its placer: {COUNTERFACTUAL}.",
    "each opponent": f"Mean counterfactual impact of the tile on each opponent: {COUNTERFACTUAL}.",
    "net swing": "Impact on the placer minus the mean impact on an opponent, per placement.",
}
IMPROVEMENT = (
    "Mean win share of seats that placed the kind at least once in the game, minus that of "
    "seats that never did, with its 95% interval from the two Wilson intervals (Newcombe's "
    "method, within −1 to 1); a diamond marks a tile whose interval excludes 0."
)
IMPROVEMENT_CAVEAT = (
    "An association, not a cause: seats that placed a kind differ from those that did not in "
    "more than that tile (how many tiles they drew, how their game went). A −1 can show a "
    "positive improvement because its placer chooses where it lands: on a rival's row or column "
    "it costs the others more than its placer, and a win share is counted against the others."
)

SEAT_ADVANTAGE = (
    "Mean win share by position in epoch 1's turn order (or by seat letter), against the fair "
    "share 1/N (red tick), with 95% Wilson intervals; a diamond marks a seat whose interval "
    "excludes the fair share, a circle one whose interval holds it."
)
BALANCE = (
    "1 − the largest gap |W_a − W_b| in mean win share between two turn-order positions; its "
    "95% interval comes from a bootstrap over games (seeded: the same games give the same "
    "interval), within [0, 1]."
)
CLOSE_GAMES = "Share of games won by less than 5 gold."
LEAD_CHANGES = "Times the leader (most gold after an epoch) changes from one epoch to the next."
COMEBACKS = "Share of games won by a seat that was last after epoch 1 or 2."
LEADER_WINS = (
    "Of the games with one seat alone in the lead (most gold) after epoch k, the share that "
    "this seat goes on to win (alone or tied)."
)
DURATION = "Plies (turns) per epoch and per game; epoch 0 is the whole game."
DECISION_MOVES = "Share of turns with more than one legal action."
HEAD_TO_HEAD = (
    "In the games where both agents sat, the share of their seat pairs in which the row agent "
    "finished with more gold (a tie counts a half); one observation per game, 95% Wilson "
    "interval."
)


def balance_interval(low: float | None, high: float | None) -> str:
    """The balance figure's interval in words (a single game has none)."""
    if low is None or high is None:
        return "no interval (one game)"
    return f"95% interval {low:.3f} to {high:.3f}"
