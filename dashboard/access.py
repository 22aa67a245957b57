"""Who may write through the dashboard: anyone on a dashboard that listens on this machine only;
on a shared one (`kingdoms dashboard --host`), only the writers it names (`--writers`), once
signed in with Streamlit's OpenID Connect log-in (`[auth]` in .streamlit/secrets.toml) under an
address their provider has verified. docs/sharing.md shows a worked example."""

from __future__ import annotations

import os

import streamlit as st
from streamlit.errors import StreamlitAuthError

from dashboard.text import plain
from data.commands.dashboard import SHARED, WRITERS


def shared() -> bool:
    """Whether the dashboard listens beyond this machine."""
    return os.environ.get(SHARED) == "1"


def writers() -> frozenset[str]:
    """The e-mail addresses that may write on a shared dashboard (lower-cased)."""
    return frozenset(filter(None, os.environ.get(WRITERS, "").lower().split(",")))


def signed_in_email() -> str | None:
    """This session's e-mail address, when signed in and verified by the provider."""
    user = st.user.to_dict()
    verified = user.get("is_logged_in") is True and user.get("email_verified") is True
    email = user.get("email")
    return email.lower() if verified and isinstance(email, str) else None


def writes_allowed() -> bool:
    """Whether this session may add games to the lake (Save, Import)."""
    return not shared() or signed_in_email() in writers()


def sign_in_control() -> None:
    """In the sidebar of a shared dashboard with writers: sign in, or who is signed in and
    whether they may write, and sign out."""
    if not (shared() and writers()):
        return
    with st.sidebar:
        if st.user.to_dict().get("is_logged_in") is not True:
            if st.button("Sign in to add games", key="access_sign_in"):
                try:
                    st.login()
                except StreamlitAuthError as error:
                    st.error(f"Signing in is not set up here: {plain(str(error))}")
            return
        email = signed_in_email()
        role = "may add games" if email in writers() else "read-only: not a writer here"
        st.caption(f"Signed in as {plain(email or 'an unverified address')} ({role})")
        st.button("Sign out", key="access_sign_out", on_click=st.logout)
