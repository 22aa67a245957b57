"""Which shards (game index ranges) of a plan the lake holds, one small marker file each under
`_shards/<plan key>/`, so that rerunning a plan plays only the shards that are missing."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

from data.lake import Lake
from engine.files import special_file_kind

FOLDER = "_shards"
_MARKER = re.compile(r"(\d+)-(\d+)\.json")

Shard = tuple[int, int]  # games [start, stop) of a plan


def plan_key(description: dict[str, object]) -> str:
    """A short name for a plan, the same in every process for the same description."""
    text = json.dumps(description, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def committed_shards(lake: Lake, key: str) -> set[Shard]:
    """The plan's shards marked committed whose batch the manifest still lists (a batch of 0
    means every game was already stored when the shard was committed)."""
    folder = lake.root / FOLDER / key
    if not folder.is_dir():
        return set()
    listed = {batch.batch_id for batch in lake.batches()}
    shards = set()
    for path in folder.iterdir():
        found = _MARKER.fullmatch(path.name)
        if found and _marked_batch(path) in listed | {0}:
            shards.add((int(found[1]), int(found[2])))
    return shards


def mark_committed(lake: Lake, key: str, shard: Shard, batch_id: int) -> None:
    """Note that a shard is in the lake as batch `batch_id` (0: its games were all there)."""
    folder = lake.root / FOLDER / key
    folder.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=folder, prefix=".marker-")
    try:
        with os.fdopen(handle, "w") as out:
            json.dump({"batch_id": batch_id}, out)
        os.replace(temp, folder / f"{shard[0]}-{shard[1]}.json")
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def _marked_batch(path: Path) -> int | None:
    try:
        if special_file_kind(path):  # a pipe would block the run
            return None
        batch = json.loads(path.read_text(encoding="utf-8")).get("batch_id")
    except (OSError, ValueError, AttributeError):
        return None
    return batch if isinstance(batch, int) else None
