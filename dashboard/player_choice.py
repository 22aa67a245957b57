"""The named player a page is about: from the URL's `player`, or chosen in a list."""

from __future__ import annotations

import streamlit as st

from dashboard.lake_data import fetch
from dashboard.text import plain


def choose_player() -> str | None:
    """The player named in the URL, or chosen here (and then put in the URL)."""
    names = fetch("recorded_players")["player"].to_list()
    if not names:
        st.info("The lake holds no recorded game with a named player: import or record one.")
        return None
    asked = st.query_params.get("player")
    index = names.index(asked) if asked in names else None
    chosen = st.selectbox("Player", names, index=index, placeholder="Choose a player")
    if chosen is not None and chosen != asked:
        st.query_params["player"] = chosen
    if asked is not None and asked not in names:
        st.warning(f"No recorded game of a player named '{plain(asked)}'.")
    return chosen
