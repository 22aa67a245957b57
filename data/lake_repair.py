"""Repairing a lake: its manifest rebuilt from the batches on disk, each read to the end first
(data/lake_check.py). A batch that fails, or that holds games a batch kept before it holds
(a compaction's old batches beside the merged one), is moved under `_set_aside/<time>/` and
reported, never deleted; so is the replaced manifest."""

from __future__ import annotations

import shutil
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from data.lake import MANIFEST, SET_ASIDE, Batch, Lake, LakeError, LakeVersionError
from data.lake_check import (
    BatchCheck,
    Damage,
    Health,
    check_batch,
    count_damage,
    table_schemas,
    unlisted_damage,
)
from data.schema import SCHEMA_VERSION, all_tables


@dataclass(frozen=True)
class Repair:
    """What a repair found wrong, what it did (a line each, naming the folder or file), and
    the lake as the manifest then lists it."""

    found: tuple[Damage, ...]
    done: tuple[str, ...]
    health: Health


def repair_lake(lake: Lake) -> Repair:
    """Under the writer lock, check every batch on disk and list the good ones in a manifest
    written atomically; a lake found healthy is left as it is. A manifest of another schema
    version is refused (LakeVersionError): its batches cannot be judged."""
    schemas = table_schemas()
    with lake.locked():
        manifest, found = _readable_manifest(lake)
        listed = [Batch(**entry) for entry in manifest["batches"]]
        checks = {
            (b.source, b.batch_id): check_batch(lake, b.source, b.batch_id, schemas) for b in listed
        }
        for batch in listed:
            checked = checks[batch.source, batch.batch_id]
            found += [*checked.damage, *count_damage(lake, batch, checked)]
        on_disk = lake.batch_folders()
        retired = {(e["source"], e["batch_id"]) for e in manifest.get("retired", [])}
        unlisted = sorted(on_disk - set(checks) - retired, key=lambda key: key[::-1])
        found += unlisted_damage(lake, unlisted)
        if not found:
            return Repair((), (), _health(listed))
        into = lake.root / SET_ASIDE / _stamp()
        # the listed batches first, then those on disk, newest first (a merged batch before
        # the batches it merged, which a compaction retired)
        others = sorted((on_disk & retired) | set(unlisted), key=lambda key: key[::-1])
        kept: list[tuple[Batch, np.ndarray]] = []
        done = []
        for source, batch_id in [*checks, *reversed(others)]:
            if (source, batch_id) not in on_disk:
                done.append(f"{lake.batch_folder(source, batch_id)}: left out (no file on disk)")
                continue
            listed_check = checks.get((source, batch_id))
            checked = listed_check or check_batch(lake, source, batch_id, schemas)
            problem = _why_not_kept(checked, kept)
            if problem:
                folder = lake.batch_folder(source, batch_id)
                lake.set_aside(source, batch_id, into)
                done.append(f"{folder}: {problem}; set aside in {into}")
                continue
            ids = checked.game_ids
            assert ids is not None  # a batch without damage has a readable games table
            batch = _batch(source, batch_id, len(ids), checked.created, listed)
            kept.append((batch, ids))
            if (source, batch_id) not in checks:
                done.append(
                    f"{lake.batch_folder(source, batch_id)}: listed again ({batch.games:,} games)"
                )
        done += _replace_manifest(lake, manifest, [b for b, _ in kept], on_disk, into)
    return Repair(tuple(found), tuple(done), _health([b for b, _ in kept]))


def _readable_manifest(lake: Lake) -> tuple[dict, list[Damage]]:
    """The manifest (an empty lake's when missing), or an empty one and its damage."""
    try:
        return lake.manifest(), []
    except LakeVersionError:
        raise
    except LakeError as error:
        empty = {"schema_version": SCHEMA_VERSION, "next_batch": 1, "batches": []}
        return empty, [Damage(str(error.file), error.problem)]


def _why_not_kept(checked: BatchCheck, kept: list[tuple[Batch, np.ndarray]]) -> str | None:
    """Why a batch is left out: its first damage, or a game that a kept batch holds."""
    if checked.damage:
        return f"{checked.damage[0].file}: {checked.damage[0].problem}"
    ids = checked.game_ids
    assert ids is not None  # a batch without damage has a readable games table
    for batch, held in kept:
        if len(ids) and len(held) and ids[0] <= held[-1] and held[0] <= ids[-1]:
            where = np.searchsorted(held, ids).clip(max=len(held) - 1)
            if (held[where] == ids).any():
                return f"holds games that batch {batch.batch_id} ({batch.source}) holds"
    return None


def _batch(
    source: str, batch_id: int, games: int, created: str | None, listed: list[Batch]
) -> Batch:
    """A kept batch's manifest entry: its games counted in its files, its listed creation
    time, else its games' earliest."""
    entry = next((b for b in listed if (b.source, b.batch_id) == (source, batch_id)), None)
    return Batch(batch_id, source, games, entry.created if entry else created or _now())


def _replace_manifest(
    lake: Lake, old: dict, kept: list[Batch], on_disk: set[tuple[str, int]], into: Path
) -> list[str]:
    """Keep the old manifest in the set-aside folder `into`, then write the one listing
    `kept`, its next batch id above every id it or the disk ever held."""
    path = lake.root / MANIFEST
    done = []
    if path.exists():
        into.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, into / MANIFEST)
        done.append(f"{path}: the old manifest kept as {into / MANIFEST}")
    highest = max([old["next_batch"] - 1, *(batch_id for _, batch_id in on_disk)])
    batches = sorted((b.__dict__ for b in kept), key=lambda entry: entry["batch_id"])
    manifest = {"schema_version": SCHEMA_VERSION, "next_batch": highest + 1, "batches": batches}
    lake.replace_manifest(manifest)
    done.append(f"{path}: rebuilt, listing {len(kept):,} batches")
    return done


def _health(batches: list[Batch]) -> Health:
    files = len(batches) * (len(all_tables()) + 1)
    return Health(len(batches), sum(b.games for b in batches), files, ())


def _stamp() -> str:
    """A set-aside folder's name: the UTC time, and a few random digits."""
    return f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:6]}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
