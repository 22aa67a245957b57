"""The recording page's way to the lake: drafts kept between reloads, saving and uploading
records through the importer (the same checks and messages as `kingdoms import`)."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dashboard.recording import Recording, RecordingError
from data.drafts import Draft, delete_draft, list_drafts, load_draft, new_draft_id, save_draft
from data.importer import ImportReport, import_records, played_from_record
from data.lake import Lake, lake_path
from engine.record import RecordError


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
    with tempfile.TemporaryDirectory(prefix="kgn-upload-") as folder:
        paths = []
        for index, (name, content) in enumerate(files):
            safe = Path(name).name or f"upload-{index}.kgn"
            directory = Path(folder) / str(index)
            directory.mkdir()
            path = directory / safe
            path.write_bytes(content)
            paths.append(path)
        report = import_records(lake(), paths)
        games = []
        for path in paths:
            try:
                games.append((path.name, played_from_record(path).game_id))
            except (RecordError, OSError):
                continue
    prefix_free = [_strip_folder(message, folder) for message in report.errors]
    report.errors = prefix_free
    return Upload(report, tuple(games))


def _strip_folder(message: str, folder: str) -> str:
    """`/tmp/kgn-upload-x/0/game.kgn:3:1: …` → `game.kgn:3:1: …`."""
    if not message.startswith(folder):
        return message
    rest = message[len(folder) :].lstrip("/")
    return rest.split("/", 1)[1] if "/" in rest.split(":", 1)[0] else rest


def save_recording(draft_id: str, recording: Recording) -> Upload:
    """Save a finished recording to the lake as `recorded`; the draft goes once it is in."""
    upload = import_texts([(f"recorded-{draft_id}.kgn", recording.text().encode())])
    if not upload.report.errors:
        forget(draft_id)
    return upload
