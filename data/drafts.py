"""Games being recorded at the table, kept in the lake as drafts so that nothing is lost.

A draft is the record so far (`.kgn` text, possibly unfinished) plus the seat that moves first,
which a record only shows once the first move is in, and, for a game of a rule-set file's rules,
that file's text (the record only names it). Each draft is one small Parquet file,
`drafts/<draft_id>.parquet`, written to a temporary file and renamed into place, so a reader
sees the previous version or the new one, never half of one. Drafts are not games: the views
never read them, and saving a finished game to the lake goes through the importer.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from data.lake import Lake, replace_file_atomically

FOLDER = "drafts"
SCHEMA = pa.schema(
    [
        ("draft_id", pa.string()),
        ("updated", pa.timestamp("ms", tz="UTC")),
        ("first_seat", pa.int8()),
        ("record", pa.string()),
        ("rules", pa.string()),  # the rule-set text of a `Rules` game; null for an edition's
    ]
)
_DRAFT_ID = re.compile(r"[0-9a-f]{12}")


class DraftError(ValueError):
    """A draft id that is not one (ids are 12 hex digits, never a path)."""


@dataclass(frozen=True)
class Draft:
    draft_id: str
    updated: datetime
    first_seat: int
    record: str
    rules: str | None = None


def new_draft_id() -> str:
    return uuid.uuid4().hex[:12]


def _path(lake: Lake, draft_id: str) -> Path:
    if not _DRAFT_ID.fullmatch(draft_id):
        raise DraftError(f"'{draft_id}' is not a draft id")
    return lake.root / FOLDER / f"{draft_id}.parquet"


def save_draft(
    lake: Lake, draft_id: str, first_seat: int, record: str, rules: str | None = None
) -> Draft:
    """Write (or replace) a draft atomically and return it."""
    draft = Draft(draft_id, datetime.now(UTC), first_seat, record, rules)
    table = pa.Table.from_pylist([draft.__dict__], schema=SCHEMA)
    replace_file_atomically(table, _path(lake, draft_id))
    return draft


def load_draft(lake: Lake, draft_id: str) -> Draft | None:
    """The draft with this id, or None when there is none."""
    path = _path(lake, draft_id)
    if not path.exists():
        return None
    return _read(path)


def _read(path: Path) -> Draft:
    """A draft file; one written before drafts kept a rule set reads as an edition's."""
    row = pq.read_table(path).to_pylist()[0]
    return Draft(**{name: row.get(name) for name in SCHEMA.names})


def list_drafts(lake: Lake) -> list[Draft]:
    """Every draft of the lake, the most recently changed first."""
    folder = lake.root / FOLDER
    if not folder.is_dir():
        return []
    drafts = [_read(path) for path in folder.glob("*.parquet") if _DRAFT_ID.fullmatch(path.stem)]
    return sorted(drafts, key=lambda d: d.updated, reverse=True)


def delete_draft(lake: Lake, draft_id: str) -> None:
    """Forget a draft (once its game is saved, or when the recorder throws it away)."""
    _path(lake, draft_id).unlink(missing_ok=True)
