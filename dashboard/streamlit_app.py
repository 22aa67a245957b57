"""Kingdoms Analytics dashboard: the pages over the lake, with filters shared in the sidebar.

Run it with `kingdoms dashboard [--lake PATH] [--host ADDRESS --writers EMAIL,…]` (the lake
and the sharing come in through the environment: KINGDOMS_LAKE, dashboard/access.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

if __package__ in (None, ""):  # run as a script by `streamlit run`: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dashboard.access import sign_in_control
from dashboard.filters import sidebar_filters
from dashboard.lake_data import QueryError
from dashboard.text import plain
from data.lake import LakeError

st.set_page_config(page_title="Kingdoms Analytics", page_icon=":material/castle:", layout="wide")

navigation = st.navigation(
    [
        st.Page("app_pages/overview.py", title="Overview", icon=":material/castle:", default=True),
        st.Page("app_pages/heatmaps.py", title="Heatmaps", icon=":material/grid_on:"),
        st.Page("app_pages/tile_impact.py", title="Tile impact", icon=":material/extension:"),
        st.Page("app_pages/balance.py", title="Balance", icon=":material/balance:"),
        st.Page("app_pages/sandbox.py", title="Sandbox", icon=":material/science:"),
        st.Page("app_pages/replay.py", title="Replay", icon=":material/replay:"),
        st.Page("app_pages/player.py", title="Player", icon=":material/person:"),
        st.Page("app_pages/practice.py", title="Practice", icon=":material/school:"),
        st.Page("app_pages/record.py", title="Record a game", icon=":material/edit_note:"),
        st.Page("app_pages/sql_console.py", title="SQL", icon=":material/terminal:"),
    ]
)
try:
    st.session_state["filters"] = sidebar_filters()
except (QueryError, LakeError) as error:  # a damaged lake: one message, on every page
    st.error(f"The lake cannot be read: {plain(error)}")
    st.stop()
sign_in_control()
navigation.run()
