"""The messages shown instead of a chart when there is nothing to show."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dashboard.filters import BASELINE, Filters, choices, level_label
from dashboard.lake_data import lake_folder
from dashboard.text import plain
from data.levels import RECORDED

HOW_TO_ADD_GAMES = """
Add games to the lake, then reload this page:

```
kingdoms simulate --games 2000 --players 2,3,4 --agents random,greedy --lake LAKE
kingdoms import data/records/*.kgn --lake LAKE
```

(`make run` builds a default lake when there is none.)
"""


def empty_lake(lake: str) -> None:
    """The lake holds no game yet: say so and how to add some."""
    st.info(f"The lake at `{lake}` holds no games yet.")
    st.markdown(HOW_TO_ADD_GAMES.replace("LAKE", lake))


def nothing_matches(filters: Filters) -> None:
    """The filters match no game: say which, and how to widen them."""
    st.warning(
        f"No games match **{plain(filters.describe())}**. Widen the filters in the sidebar "
        "(set some back to *All*), or add such games to the lake."
    )


def lake_has_games() -> bool:
    """True when the lake has games; otherwise shows the empty-lake message."""
    if choices().is_empty():
        empty_lake(lake_folder())
        return False
    return True


def ignored_filters(
    filters: Filters, followed: frozenset[str], where: DeltaGenerator | None = None
) -> None:
    """Say, next to a figure (in `where`, else the page), which chosen filters it does not
    follow."""
    ignored = filters.ignored_by(followed)
    if ignored:
        those = "that filter" if len(ignored) == 1 else "those filters"
        said = plain(", ".join(ignored))
        (where or st).caption(f"Not filtered by {said}: this figure ignores {those}.")


def play_level(filters: Filters) -> None:
    """Say under a statistics page's title which play level its figures come from."""
    if filters.level is None:
        said = "games of **every play level** together, random play included"
    elif filters.level == BASELINE:
        said = "**random play (baseline)**: tables with a random agent, not competent play"
    elif filters.level == RECORDED:
        said = "**recorded games**: tables with a person at them"
    else:
        said = f"**{level_label(filters.level)}**: tables whose weakest seat plays at that level"
    st.caption(f"Figures from {said}. Choose another *Play level* in the sidebar.")
