"""Where a lake lives and how batches enter it.

A lake is a folder: `<table>/source=<source>/batch_id=<n>/part-0.parquet` for every table, and
`lake.json`, the manifest that names the schema version and every committed batch. A batch is
written to `_tmp/<run>/`, renamed into place, then listed in the manifest (replaced
atomically), so a reader, which only opens listed files, never sees half a batch. A writer
removes its staging area when it stops; a killed one leaves only unlisted files behind.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from data.aggregates import aggregate_tables, all_tables
from data.schema import SCHEMA_VERSION
from engine.cli_support import BadInput

DEFAULT_LAKE = Path("data/lake")
MANIFEST = "lake.json"
PART = "part-0.parquet"


class LakeVersionError(BadInput):
    """A lake written with a schema this code cannot read."""


def lake_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The lake folder: the explicit path, else $KINGDOMS_LAKE, else data/lake."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("KINGDOMS_LAKE")
    return Path(env) if env else DEFAULT_LAKE


@dataclass(frozen=True)
class Batch:
    """One committed batch: its id, source, game count and creation time (ISO, UTC)."""

    batch_id: int
    source: str
    games: int
    created: str


def write_table(table: pa.Table, path: Path) -> None:
    """Write one table file: zstd; strings dictionary-encoded, numbers but the sorted game id
    byte-stream-split, which compresses as well and writes twice as fast."""
    fields = table.schema
    dictionary = [f.name for f in fields if pa.types.is_dictionary(f.type) or f.type == pa.string()]
    split = [
        f.name
        for f in fields
        if (pa.types.is_integer(f.type) or pa.types.is_floating(f.type))
        and f.name not in dictionary
        and f.name != "game_id"
    ]
    buffer = pa.BufferOutputStream()  # one write to the file, not one per page
    pq.write_table(
        table,
        buffer,
        compression="zstd",
        compression_level=1,  # as small as level 3 here, and a fifth faster
        use_dictionary=dictionary,
        use_byte_stream_split=split,
        row_group_size=1 << 14,  # narrow game_id ranges: fetching one game skips the rest
        write_batch_size=1 << 14,  # values encoded a row group at a time, not 1,024
        write_statistics=["game_id"] if "game_id" in table.column_names else False,
    )
    path.write_bytes(buffer.getvalue())


def replace_file_atomically(table: pa.Table, path: Path) -> None:
    """Write a small side file (a draft, a review) to a temporary name, then rename it into
    place: a reader sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".parquet")
    os.close(handle)
    try:
        pq.write_table(table, temp, compression="zstd")
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


class Lake:
    """A lake folder: read its manifest, stage and commit batches."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).resolve()

    # ---------------------------------------------------------------- reading

    def manifest(self) -> dict:
        """The manifest (an empty lake's when there is none); refuses other schema versions."""
        path = self.root / MANIFEST
        if not path.exists():
            return {"schema_version": SCHEMA_VERSION, "next_batch": 1, "batches": []}
        manifest = json.loads(path.read_text())
        version = manifest.get("schema_version")
        if version != SCHEMA_VERSION:
            raise LakeVersionError(
                f"{path}: lake schema version {version}, this engine reads version "
                f"{SCHEMA_VERSION}; rebuild the lake or use a matching engine"
            )
        return manifest

    def batches(self) -> list[Batch]:
        return [Batch(**entry) for entry in self.manifest()["batches"]]

    def files(self, table: str) -> list[Path]:
        """The committed Parquet files of one table, in batch order."""
        return [self.batch_dir(table, b.source, b.batch_id) / PART for b in self.batches()]

    def batch_dir(self, table: str, source: str, batch_id: int) -> Path:
        return self.root / table / f"source={source}" / f"batch_id={batch_id}"

    # ---------------------------------------------------------------- writing

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the lake's writer lock (one committer at a time)."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def staging_area(self, run: str) -> Path:
        """Where one writer stages its batches (inside the lake: renames stay atomic)."""
        return self.root / "_tmp" / run

    def stage_tables(self, tables: dict[str, pa.Table], run: str) -> Path:
        """Write one batch's tables and their aggregates into a staging folder; return it."""
        area = self.staging_area(run)
        area.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=area))
        tables = {**tables, **aggregate_tables(tables)}
        for name in all_tables():
            write_table(tables[name], staging / f"{name}.parquet")
        return staging

    def commit(self, staging: Path, source: str, games: int) -> Batch:
        """Move a staged batch into place and list it in the manifest."""
        with self.locked():
            manifest = self.manifest()
            batch_id = manifest["next_batch"]
            for name in all_tables():
                target = self.batch_dir(name, source, batch_id)
                if target.exists():
                    shutil.rmtree(target)
                target.mkdir(parents=True)
                os.replace(staging / f"{name}.parquet", target / PART)
            batch = Batch(batch_id, source, games, datetime.now(UTC).isoformat(timespec="seconds"))
            manifest["next_batch"] = batch_id + 1
            manifest["batches"].append(batch.__dict__)
            self._write_manifest(manifest)
        shutil.rmtree(staging, ignore_errors=True)
        return batch

    def end_run(self, run: str) -> None:
        """Remove whatever a writer left staged (batches it did not commit)."""
        shutil.rmtree(self.staging_area(run), ignore_errors=True)

    def _write_manifest(self, manifest: dict) -> None:
        handle, name = tempfile.mkstemp(dir=self.root, prefix=".lake-", suffix=".json")
        with os.fdopen(handle, "w") as out:
            json.dump(manifest, out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(name, self.root / MANIFEST)
