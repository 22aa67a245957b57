"""The recording page's way to the lake: drafts kept between reloads, and records saved or
uploaded through the importer's checks and messages, each parsed once, in memory."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dashboard.recording import Recording, RecordingError
from data.drafts import Draft, delete_draft, list_drafts, load_draft, new_draft_id, save_draft
from data.importer import ImportReport, parse_records, store_records
from data.lake import Lake, lake_path


def lake() -> Lake:
    return Lake(lake_path())


def start_draft(recording: Recording) -> str:
    """Keep a new recording as a draft; returns its id."""
    draft_id = new_draft_id()
    save_draft(lake(), draft_id, recording.first_seat, recording.text())
    return draft_id


def keep(draft_id: str, recording: Recording) -> None:
    save_draft(lake(), draft_id, recording.first_seat, recording.text())


def resume(draft_id: str) -> Recording | None:
    """The recording of a draft (None if there is no such draft or it cannot be read)."""
    try:
        draft = load_draft(lake(), draft_id)
        return Recording.from_text(draft.record, draft.first_seat) if draft else None
    except (ValueError, RecordingError):
        return None


def drafts() -> list[Draft]:
    return list_drafts(lake())


def draft_label(draft: Draft) -> str:
    """`Ann, Bob, Cy · 2026.12.01 · epoch 2, 34 moves · changed 2026-12-01 22:10`: who plays,
    the game's date (its `Date` tag, else the day the draft was last changed), how far it got."""
    try:
        recording = Recording.from_text(draft.record, draft.first_seat)
    except RecordingError:
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


def import_texts(files: Sequence[tuple[str, bytes]]) -> Upload:
    """Import records given as (file name, contents): the good ones enter the lake as
    `recorded`, every bad one is reported `name:line:col: message`."""
    named = [
        (Path(name).name or f"upload-{index}.kgn", content)
        for index, (name, content) in enumerate(files)
    ]
    games, errors = parse_records(named)
    report = store_records(lake(), [game for _, game in games], errors)
    return Upload(report, tuple((name, game.game_id) for name, game in games))


def save_recording(draft_id: str, recording: Recording) -> Upload:
    """Save a finished recording to the lake as `recorded`; the draft goes once it is in."""
    upload = import_texts([(f"recorded-{draft_id}.kgn", recording.text().encode())])
    if not upload.report.errors:
        forget(draft_id)
    return upload
