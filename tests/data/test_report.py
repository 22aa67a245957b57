"""The comparison report: one HTML file that parses, holds its charts inline as SVG, fetches
nothing, and shows the lake's own figures, the differing parameters and the remaking command."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from data.balance import balance_by_players
from data.compare import Comparison, compare
from data.lake import Lake
from data.reader import connect, execute
from data.report import report_html
from engine.rules import rule_set, rules_from_text, rules_hash

GAMES = 30  # per rule set, 10 at each of 2, 3 and 4 players
SMALL_BOARD = 'name = "Small board"\nbase = "kingdoms-2011"\nrows = 4\ncolumns = 5\n'


class Page(HTMLParser):
    """Every start tag with its attributes, and each table's rows as lists of cell texts, under
    the heading before the table."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.tables: dict[str, list[list[str]]] = {}
        self._heading = ""
        self._text: list[str] | None = None
        self._row: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag in ("h2", "h3", "td", "th"):
            self._text = []
        elif tag == "tr":
            self._row = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h2", "h3") and self._text is not None:
            self._heading, self._text = "".join(self._text).strip(), None
        elif tag in ("td", "th") and self._text is not None:
            self._row.append("".join(self._text).strip())
            self._text = None
        elif tag == "tr":
            self.tables.setdefault(self._heading, []).append(self._row)

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)


@pytest.fixture(scope="module")
def comparison(tmp_path_factory: pytest.TempPathFactory) -> tuple[Lake, Comparison]:
    lake = Lake(tmp_path_factory.mktemp("report"))
    lake.require_writable()
    a, b = rule_set("kingdoms-2011"), rules_from_text(SMALL_BOARD)
    return lake, compare(a, b, lake, games=GAMES, workers=1, skill_games=1)


@pytest.fixture(scope="module")
def page(comparison: tuple[Lake, Comparison]) -> Page:
    parser = Page()
    parser.feed(report_html(comparison[1]))
    parser.close()
    return parser


def test_the_charts_are_inline_svg(page: Page) -> None:
    svgs = [tag for tag, _ in page.tags if tag == "svg"]
    assert len(svgs) >= 3  # the seats, and the differences in shares, gold and plies


def test_the_report_fetches_nothing(page: Page) -> None:
    for tag, attributes in page.tags:
        assert tag not in ("script", "link", "img", "iframe", "object", "embed")
        for name in ("src", "href", "xlink:href", "data"):
            assert not (attributes.get(name) or "").lower().startswith(("http:", "https:", "//"))
        assert "url(" not in (attributes.get("style") or "")


def _cell(page: Page, players: int, figure: str, column: str) -> str:
    header, *rows = page.tables[f"{players} players"]
    row = next(row for row in rows if row[0] == figure)
    return row[header.index(column)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_figures_are_the_lakes(comparison, page: Page, players: int) -> None:
    lake, compared = comparison
    con = connect(lake)
    for column, rules in (("A", compared.a), ("B", compared.b)):
        filters = {"rules": rules_hash(rules), "level": "heuristic", "source": "simulated"}
        filters["players"] = players
        balance = balance_by_players(execute(con, "balance_outcomes", filters)).row(0, named=True)
        assert _cell(page, players, "balance", column) == f"{balance['balance']:.3f}"
        interval = f"{balance['balance_low']:.3f} to {balance['balance_high']:.3f}"
        assert _cell(page, players, "balance", f"{column} 95%") == interval
        summary = execute(con, "balance_summary", filters).row(0, named=True)
        margin = _cell(page, players, "mean winning margin", column)
        assert margin == f"{summary['mean_victory_margin']:.2f}"
        comebacks = execute(con, "comebacks", filters).row(0, named=True)
        assert _cell(page, players, "comebacks", column) == f"{comebacks['share']:.3f}"
        games = int(summary["games"])
        assert games == GAMES // 3
        assert _cell(page, players, "comebacks", "games").replace(",", "") == str(games)


def test_the_differing_parameters_are_listed(page: Page) -> None:
    rows = page.tables["What differs"]
    assert rows[0] == ["parameter", "A", "B"]
    assert sorted(rows[1:]) == [["columns", "6", "5"], ["rows", "5", "4"]]


def test_the_report_says_who_played_and_how_to_remake_it(comparison) -> None:
    _, compared = comparison
    html = report_html(compared)
    assert "heuristic" in html and "engine 0.1.0" in html
    assert f"kingdoms compare --rules kingdoms-2011 --rules B.toml --games {GAMES}" in html
    named = report_html(compared, ("kingdoms-2011", "small.toml"))
    assert "--rules kingdoms-2011 --rules small.toml" in named
