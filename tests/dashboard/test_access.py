"""Who may write through the dashboard (dashboard/access.py), through AppTest's `st.user`: anyone
on this machine; on a shared dashboard only a named writer, signed in under an address their
provider verified; and the sidebar's sign-in."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from data.commands.dashboard import SHARED, WRITERS

PROBE = """
import streamlit as st
from dashboard.access import sign_in_control, writes_allowed
st.text(f"writes allowed: {writes_allowed()}")
sign_in_control()
"""
ANN = {"is_logged_in": True, "email": "Ann@Example.com", "email_verified": True}


def probe(monkeypatch, shared: str, writers: str, user: dict) -> AppTest:
    monkeypatch.setenv(SHARED, shared)
    monkeypatch.setenv(WRITERS, writers)
    app = AppTest.from_string(PROBE, default_timeout=30)
    app.user = user
    return app.run()


@pytest.mark.parametrize(
    "shared, writers, user, allowed",
    [
        ("0", "", {}, True),  # this machine only: anyone
        ("1", "", ANN, False),  # shared, no writers: nobody
        ("1", "ann@example.com", ANN, True),
        ("1", "bob@example.org,ann@example.com", ANN, True),
        ("1", "bob@example.org", ANN, False),
        ("1", "ann@example.com", {**ANN, "email_verified": False}, False),
        ("1", "ann@example.com", {k: v for k, v in ANN.items() if k != "email_verified"}, False),
        ("1", "ann@example.com", {**ANN, "is_logged_in": False}, False),
        ("1", "test@example.com", {"email": "test@example.com"}, False),  # not signed in
    ],
)
def test_who_may_write(monkeypatch, shared, writers, user, allowed):
    app = probe(monkeypatch, shared, writers, user)
    assert not app.exception
    assert app.text[0].value == f"writes allowed: {allowed}"


def test_shared_dashboard_with_writers_offers_to_sign_in(monkeypatch):
    app = probe(monkeypatch, "1", "ann@example.com", {})
    assert [b.label for b in app.sidebar.button] == ["Sign in to add games"]
    app.sidebar.button[0].click().run()
    assert not app.exception
    assert app.error[0].value.startswith("Signing in is not set up here")


def test_signed_in_writer_sees_who_and_may_sign_out(monkeypatch):
    app = probe(monkeypatch, "1", "ann@example.com", ANN)
    assert app.sidebar.caption[0].value == r"Signed in as ann\@example\.com (may add games)"
    assert [b.label for b in app.sidebar.button] == ["Sign out"]
    reader = probe(monkeypatch, "1", "bob@example.org", ANN)
    assert "read-only: not a writer here" in reader.sidebar.caption[0].value


@pytest.mark.parametrize("shared, writers", [("0", "ann@example.com"), ("1", "")])
def test_no_sign_in_where_it_changes_nothing(monkeypatch, shared, writers):
    assert not probe(monkeypatch, shared, writers, {}).sidebar.button
