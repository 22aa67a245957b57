"""A comparison of two rule sets as one self-contained HTML file to share: what differs, every
figure with its interval, games and verdict, the charts as inline SVG (rendered offline by
vl-convert), who played, when, and the command that remakes it. It fetches nothing."""

from __future__ import annotations

import shlex
from html import escape

import polars as pl
import vl_convert

from data.compare import (
    DESIGN,
    DIFFERENCE_INTERVAL,
    REAL,
    SHARE,
    SIDES,
    SKILL_DEFINITION,
    VERDICT_RULE,
    Comparison,
    shipped_name,
)
from data.compare_charts import difference_chart, seat_chart
from data.definitions import (
    BALANCE,
    CLOSE_GAMES,
    COMEBACKS,
    DECISION_MOVES,
    LEAD_CHANGES,
    LEADER_WINS,
)
from data.design import DEFINITIONS
from engine.rules import rule_text, rules_hash

# docs/metrics.md's definitions, in a line each, of the Balance page's figures
FIGURE_DEFINITIONS = {
    "balance": BALANCE,
    "win share of mover k": "Mean win share of the seat k-th in epoch 1's turn order (a tie for "
    "most gold shares the win); fair is 1/N.",
    "mean winning margin": "The winner's gold minus the best other seat's, mean over games.",
    "games won by < 5 gold": CLOSE_GAMES,
    "plies per game": "Turns played in a game, mean over games.",
    "decision moves": DECISION_MOVES,
    "games with k lead changes": f"Share of games with k lead changes. {LEAD_CHANGES}",
    "comebacks": COMEBACKS,
    "leader after epoch k wins": LEADER_WINS,
}
UNIT_TITLES = {SHARE: "shares and balance"}
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.real td { background: #fff4e0; }
pre { background: #f6f6f6; padding: 0.6rem; overflow-x: auto; }
figure { margin: 1rem 0; }
.note { color: #555; font-size: 0.9rem; }
"""


def report_html(comparison: Comparison, rules_named: tuple[str, str] | None = None) -> str:
    """The comparison as one HTML page; `rules_named` says how the command that remakes it
    names each rule set (default: a shipped one by its name, another as A.toml or B.toml, the
    file its text in the report would be saved as)."""
    names = (comparison.a.name, comparison.b.name)
    title = f"{names[0]} against {names[1]}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Rule sets compared: {escape(title)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Rule sets compared</h1><p>A: <b>{escape(names[0])}</b> · "
        f"B: <b>{escape(names[1])}</b></p>",
        _summary(comparison),
        _rule_sets(comparison),
        _games(comparison),
        _charts(comparison, names),
        _figure_tables(comparison),
        _definitions(),
        _remake(comparison, rules_named),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _summary(comparison: Comparison) -> str:
    counts = comparison.verdicts()
    said = ", ".join(f"{escape(verdict)}: {count}" for verdict, count in sorted(counts.items()))
    return (
        f"<p>{len(comparison.figures)} figures compared ({said}). {escape(VERDICT_RULE)} "
        f"{escape(DIFFERENCE_INTERVAL)} With many figures, about one in twenty can look real "
        "by chance alone.</p>"
    )


def _rule_sets(comparison: Comparison) -> str:
    """The parameters that differ, then both canonical texts."""
    rows = "".join(
        f"<tr><td><code>{escape(key)}</code></td><td>{escape(a)}</td><td>{escape(b)}</td></tr>"
        for key, a, b in comparison.differences
    )
    texts = "".join(
        f"<details><summary>Rule set {side}: {escape(rules.name)} (hash "
        f"<code>{rules_hash(rules)}</code>)</summary><pre>{escape(rule_text(rules))}</pre>"
        "</details>"
        for side, rules in zip(SIDES, (comparison.a, comparison.b), strict=True)
    )
    table = (
        f"<table><tr><th>parameter</th><th>A</th><th>B</th></tr>{rows}</table>"
        if rows
        else "<p>The two rule sets have the same parameters.</p>"
    )
    return f"<h2>What differs</h2>{table}{texts}"


def _games(comparison: Comparison) -> str:
    """Who played, how many games stand behind each side, when and with which engine."""
    balance = comparison.figures.filter(pl.col("figure") == "balance")
    rows = "".join(
        f"<tr><td>{row['players']}</td><td class='number'>{row['games_a']:,}</td>"
        f"<td class='number'>{row['games_b']:,}</td></tr>"
        for row in balance.iter_rows(named=True)
    )
    agents = ", ".join(comparison.agents)
    return (
        "<h2>Games behind the figures</h2>"
        f"<p>Simulated games, the agents {escape(agents)} rotated over the seats "
        f"({escape(comparison.level)} play), {comparison.games:,} asked per rule set on seed "
        f"{comparison.seed} (each rule set plays on its own seed, so the two sides' games are "
        "independent), and every other simulated game of the same rule set and play level the "
        "lake held. The design measures read the comparison's own games, replayed from their "
        "seeds, with the search's fitted leaf; skill depth plays games of its own, the search "
        "against itself at half its budget (the games are under each figure). Made "
        f"{comparison.made:%Y-%m-%d %H:%M} UTC with engine {escape(comparison.engine_version)} "
        f"(agents version {comparison.agents_version}).</p>"
        f"<table><tr><th>players</th><th>games A</th><th>games B</th></tr>{rows}</table>"
    )


def _charts(comparison: Comparison, names: tuple[str, str]) -> str:
    """The seat chart and one chart of differences per unit, each as inline SVG, captioned with
    the games behind it."""
    figures = comparison.figures
    charts = [(seat_chart(comparison.seats, names), _games_caption(comparison.seats))]
    for unit in figures["unit"].unique(maintain_order=True):
        title = f"Differences B − A in {UNIT_TITLES.get(unit, unit)} against 0"
        charts.append(
            (
                difference_chart(figures.filter(pl.col("unit") == unit), title, unit),
                "Each figure's games on either side are in its row of the tables below.",
            )
        )
    return "<h2>Charts</h2>" + "".join(
        f"<figure>{vl_convert.vegalite_to_svg(spec)}<figcaption class='note'>{escape(caption)}"
        "</figcaption></figure>"
        for spec, caption in charts
    )


def _games_caption(seats: pl.DataFrame) -> str:
    """The games behind the seat chart: each side's at each player count."""
    games = seats.group_by("side", "players").agg(pl.col("seats").first()).sort("side", "players")
    return "Games: " + "; ".join(
        f"{row['side']} at {row['players']} players {row['seats']:,}"
        for row in games.iter_rows(named=True)
    )


def _figure_tables(comparison: Comparison) -> str:
    """Every figure of each player count: A and B with interval and games, B − A, verdict."""
    header = (
        "<tr><th>figure</th><th>A</th><th>A 95%</th><th>games</th><th>B</th><th>B 95%</th>"
        "<th>games</th><th>B − A</th><th>B − A 95%</th><th>verdict</th></tr>"
    )
    tables = []
    for (players,), part in comparison.figures.partition_by(
        "players", as_dict=True, maintain_order=True
    ).items():
        rows = "".join(_figure_row(row) for row in part.iter_rows(named=True))
        tables.append(f"<h3>{players} players</h3><table>{header}{rows}</table>")
    return "<h2>Figures</h2>" + "".join(tables)


def _definitions() -> str:
    """What each figure is, the Balance page's then the design measures'."""
    design = DEFINITIONS | {"skill depth": SKILL_DEFINITION}
    every = FIGURE_DEFINITIONS | {f"{DESIGN}{name}": text for name, text in design.items()}
    items = "".join(
        f"<dt>{escape(name)}</dt><dd>{escape(text)}</dd>" for name, text in every.items()
    )
    return f"<h2>What the figures are</h2><dl>{items}</dl>"


def _figure_row(row: dict) -> str:
    digits = 3 if row["unit"] == SHARE else 2
    cells = [
        escape(row["figure"]),
        _number(row["value_a"], digits),
        _interval(row["low_a"], row["high_a"], digits),
        f"{row['games_a']:,}",
        _number(row["value_b"], digits),
        _interval(row["low_b"], row["high_b"], digits),
        f"{row['games_b']:,}",
        _number(row["difference"], digits, signed=True),
        _interval(row["difference_low"], row["difference_high"], digits, signed=True),
        escape(row["verdict"]),
    ]
    shown = "".join(
        f"<td>{cell}</td>" if index in (0, 9) else f"<td class='number'>{cell}</td>"
        for index, cell in enumerate(cells)
    )
    return f"<tr class='{'real' if row['verdict'] == REAL else ''}'>{shown}</tr>"


def _number(value: float | None, digits: int, signed: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def _interval(low: float | None, high: float | None, digits: int, signed: bool = False) -> str:
    if low is None or high is None:
        return "—"
    return f"{_number(low, digits, signed)} to {_number(high, digits, signed)}"


def _remake(comparison: Comparison, rules_named: tuple[str, str] | None) -> str:
    command = remake_command(comparison, rules_named)
    return (
        "<h2>Remake this report</h2>"
        f"<pre>{escape(command)}</pre><p class='note'>A rule set named A.toml or B.toml is its "
        "text above, saved as that file. The same seed plays the same games; a lake holding "
        "them already reuses them.</p>"
    )


def remake_command(comparison: Comparison, rules_named: tuple[str, str] | None = None) -> str:
    """The `kingdoms compare` command line that makes this comparison again."""
    named = rules_named or tuple(
        shipped_name(rules) or f"{side}.toml"
        for side, rules in zip(SIDES, (comparison.a, comparison.b), strict=True)
    )
    words = ["kingdoms", "compare", "--rules", named[0], "--rules", named[1]]
    if len(comparison.players) == 1:
        words += ["--players", str(comparison.players[0])]
    words += ["--games", str(comparison.games), "--agents", ",".join(comparison.agents)]
    words += ["--seed", str(comparison.seed), "--out", "report.html"]
    return shlex.join(words)
