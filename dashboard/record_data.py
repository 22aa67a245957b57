"""The recording page's way to the lake: drafts kept between reloads, and records saved or
uploaded through the importer's checks and messages, each parsed once, in memory."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dashboard.recording import Recording
from data.drafts import Draft, delete_draft, list_drafts, load_draft, new_draft_id, save_draft
from data.importer import ImportReport, parse_records, store_records
from data.lake import Lake, lake_path
from data.rule_sets import parsed_rules
from engine.rulefile import RuleFileError
from engine.rules import RuleSet, rule_text, rules_from_text


def lake() -> Lake:
    return Lake(lake_path())


def start_draft(recording: Recording) -> str:
    """Keep a new recording as a draft; returns its id."""
    draft_id = new_draft_id()
    keep(draft_id, recording)
    return draft_id


def keep(draft_id: str, recording: Recording) -> None:
    rules = recording.own_rules
    text = rule_text(rules) if rules else None
    save_draft(lake(), draft_id, recording.first_seat, recording.text(), text)


def draft_recording(draft: Draft) -> Recording:
    """The recording a draft keeps (raises RecordingError, or RuleFileError for its rules)."""
    rules = parsed_rules(draft.rules) if draft.rules else None
    return Recording.from_text(draft.record, draft.first_seat, rules)


def resume(draft_id: str) -> Recording | None:
    """The recording of a draft (None if there is no such draft or it cannot be read)."""
    try:
        draft = load_draft(lake(), draft_id)
        return draft_recording(draft) if draft else None
    except ValueError:  # a RecordingError, or its rule set's RuleFileError
        return None


def drafts() -> list[Draft]:
    return list_drafts(lake())


def draft_label(draft: Draft) -> str:
    """`Ann, Bob, Cy · 2026.12.01 · epoch 2, 34 moves · changed 2026-12-01 22:10`: who plays,
    the game's date (its `Date` tag, else the day the draft was last changed), how far it got."""
    try:
        recording = draft_recording(draft)
    except ValueError:
        return f"unreadable draft · changed {draft.updated:%Y-%m-%d %H:%M}"
    day = recording.record.tags.get("Date") or f"{draft.updated:%Y.%m.%d}"
    progress = f"epoch {recording.epoch}, {len(recording.moves)} moves"
    if recording.is_over:
        progress = f"finished, {len(recording.moves)} moves"
    return (
        f"{', '.join(recording.names)} · {day} · {progress} · "
        f"changed {draft.updated:%Y-%m-%d %H:%M}"
    )


def forget(draft_id: str) -> None:
    delete_draft(lake(), draft_id)


@dataclass(frozen=True)
class Upload:
    """What an import of uploaded records did, with messages as `kingdoms import` prints."""

    report: ImportReport
    games: tuple[tuple[str, int], ...]  # (file name, game id) of every good record, new or not


def import_texts(files: Sequence[tuple[str, bytes]], rules: RuleSet | None = None) -> Upload:
    """Import records given as (file name, contents): the good ones enter the lake as
    `recorded`, every bad one is reported `name:line:col: message`; with `rules`, each is
    played by them (records of a rule-set file's games)."""
    named = [
        (Path(name).name or f"upload-{index}.kgn", content)
        for index, (name, content) in enumerate(files)
    ]
    games, errors = parse_records(named, rules)
    report = store_records(lake(), [game for _, game in games], errors)
    return Upload(report, tuple((name, game.game_id) for name, game in games))


def uploaded_rules(name: str, data: bytes) -> RuleSet:
    """The rule set an uploaded rule-set file describes, or RuleFileError `name:line:col: …`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RuleFileError(f"{name}:1:1: not UTF-8 text") from None
    return rules_from_text(text, name)


def save_recording(draft_id: str, recording: Recording) -> Upload:
    """Save a finished recording to the lake as `recorded`; the draft goes once it is in."""
    record = (f"recorded-{draft_id}.kgn", recording.text().encode())
    upload = import_texts([record], recording.own_rules)
    if not upload.report.errors:
        forget(draft_id)
    return upload
