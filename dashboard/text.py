"""Text a person supplied (player and agent names, tags, file names, comments, a URL's values)
for the places Streamlit reads as Markdown: shown as its characters, never as a link, an image,
HTML, emphasis, a directive or math."""

from __future__ import annotations

import re

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character
_LINE_BREAK = re.compile(r"[\r\n]+")


def plain(text: object) -> str:
    """`text` for Markdown: each ASCII punctuation character backslash-escaped (CommonMark lets
    any of them be), line breaks as spaces (a blank line would start a new block)."""
    return _PUNCTUATION.sub(r"\\\1", _LINE_BREAK.sub(" ", str(text)))
