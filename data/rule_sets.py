"""The rule set a stored game follows, read back from the canonical text its batch keeps."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from engine.rules import RuleSet, rules_from_text


def stored_rules(game: Mapping[str, object]) -> RuleSet:
    """The rules of a game as `game_record` gives it (its `rule_text`)."""
    return parsed_rules(str(game["rule_text"]))


@cache
def parsed_rules(text: str) -> RuleSet:
    """A rule set the lake keeps (a game's, or a draft's), read once a process (the lake wrote
    it: it reads back)."""
    return rules_from_text(text, "the lake's rule set")
