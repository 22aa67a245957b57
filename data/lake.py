"""A lake folder: its manifest, and batches staged in `_tmp/<run>/`, then renamed into place and
listed under the writer's lock (readers open only listed files: never half a batch). A lake
never deletes what it did not write: a batch folder the manifest does not list makes the lake
damaged (readers and writers refuse it) until `kingdoms lake check --repair` lists it again."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import stat
import tempfile
import uuid
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeGuard

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from data.schema import (
    PART,
    RULE_SETS,
    SCHEMA_CHANGE,
    SCHEMA_VERSION,
    SOURCES,
    TABLE_SCHEMAS,
    TABLES,
    all_tables,
    batch_folder,
)

DEFAULT_LAKE = Path("data/lake")
MANIFEST = "lake.json"
STAGING = "_tmp"
OWNER = ".owner"  # in a staging area: held locked by its writer while the writer lives
# A games row holds its whole action list: 1,024 a row group, one game's fetch decodes 2.7 ms
# of them where 16,384 took 4.4 ms (1.4% larger files); other tables keep the default.
ROW_GROUP_ROWS = {"games": 1 << 10}
# Each batch's game ids, sorted, in a tree of its own: a glob or a directory scan of a table's
# folder (Polars refuses mixed file kinds there) sees only the table's Parquet files.
INDEX_TREE = "_game_ids"
GAME_INDEX = "game_ids.npy"
PARQUET_MAGIC = b"PAR1"  # a Parquet file starts and ends with it
RETIRED_FOR = 600  # seconds a merged batch's files stay for the connections made before
SET_ASIDE = "_set_aside"  # where a repair moves the batches it leaves out (never deleted)
CHECK_HINT = "`kingdoms lake check` lists every damaged file"
REPAIR_HINT = "`kingdoms lake check --repair` checks the batches on disk and lists the good ones"
MAX_WHOLE = 2**63 - 1  # a manifest's numbers fit DuckDB's BIGINT (batch_id is a column)
BATCH_PREFIX = "batch_id="


Tables = dict[str, pa.Table]
Derive = Callable[[Tables], Tables]  # a batch's derived tables (aggregates) from its stored ones


class LakeError(Exception):
    """A lake that cannot be used (missing, not a folder, damaged); the message names the file."""

    def __init__(self, file: Path, problem: str) -> None:
        super().__init__(f"{file}: {problem}")
        self.file, self.problem = file, problem


class LakeVersionError(LakeError):
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


def write_table(table: pa.Table, path: Path, row_group_size: int = 1 << 14) -> None:
    """Write one table file: zstd; strings dictionary-encoded, numbers but the sorted game id
    byte-stream-split, which compresses as well and writes twice as fast. Narrow row groups
    (narrow game_id ranges) let fetching one game skip the rest."""
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
        row_group_size=row_group_size,
        write_batch_size=row_group_size,  # values encoded a row group at a time, not 1,024
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
        self._indexes: dict[tuple[str, int], np.ndarray] = {}

    # ---------------------------------------------------------------- reading

    def manifest(self) -> dict:
        """The manifest (an empty lake's when there is none), checked entry by entry: a damaged
        one or one of another schema version is refused with a LakeError naming it."""
        path = self.root / MANIFEST
        if not path.exists():
            return {"schema_version": SCHEMA_VERSION, "next_batch": 1, "batches": []}
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not UTF-8 text"
            raise LakeError(path, f"the lake's manifest cannot be read ({reason})") from None
        return parse_manifest(path, text)

    def batches(self) -> list[Batch]:
        return [Batch(**entry) for entry in self.manifest()["batches"]]

    def files(self, table: str) -> list[Path]:
        """The committed Parquet files of one table, in batch order."""
        return [self.part(table, b) for b in self.batches()]

    def table_files(
        self, schemas: Mapping[str, pa.Schema] = TABLE_SCHEMAS, writing: bool = False
    ) -> dict[str, list[Path]]:
        """The committed files of every table, the lake refused (a LakeError naming the file)
        when its folders hold a batch the manifest does not list, when a file is missing,
        truncated, or (for the tables in `schemas`) of other columns than its table's, or when
        a batch's id index cannot be read."""
        manifest = self.checked_manifest(writing)
        batches = [Batch(**entry) for entry in manifest["batches"]]
        files = {table: [self.part(table, b) for b in batches] for table in all_tables()}
        for table, paths in files.items():
            for path in paths:
                problem = file_problem(path, table, schemas.get(table))
                if problem:
                    raise LakeError(path, f"{problem}; {CHECK_HINT}")
        for batch in batches:
            path = self.index_path(batch.source, batch.batch_id)
            problem = index_problem(path)
            if problem:
                raise LakeError(path, f"the batch's id index {problem}; {CHECK_HINT}")
        return files

    def checked_manifest(self, writing: bool = False) -> dict:
        """The manifest, refused (a LakeError) when the lake holds a batch it does not list.
        `writing`: the caller holds the writer lock, so no commit is under way."""
        manifest, unlisted = self.manifest_and_unlisted(writing)
        if unlisted:
            (file, problem), *more = self.unlisted_problems(unlisted)
            also = f"; {len(more):,} more like it" if more else ""
            raise LakeError(file, f"{problem}{also}; {REPAIR_HINT}")
        return manifest

    def manifest_and_unlisted(self, writing: bool = False) -> tuple[dict, list[tuple[str, int]]]:
        """The manifest, and the batches whose folders are on disk but neither listed nor
        retired in it. Without the writer lock, a batch a commit is moving into place (above
        every id the manifest gave out while a writer holds the lock) is not counted, and one
        listed meanwhile is found by reading the manifest again."""
        manifest = self.manifest()
        unlisted = self._unlisted(manifest)
        if unlisted and not writing:
            if self._writer_active():
                unlisted = [key for key in unlisted if key[1] < manifest["next_batch"]]
            else:
                manifest = self.manifest()
                unlisted = self._unlisted(manifest)
        return manifest, unlisted

    def unlisted_problems(self, unlisted: list[tuple[str, int]]) -> list[tuple[Path, str]]:
        """What is wrong, file by file: a missing manifest once, else each unlisted batch."""
        manifest = self.root / MANIFEST
        if not manifest.exists():
            return [(manifest, f"missing, yet the lake holds {len(unlisted):,} batches")]
        return [
            (
                self.batch_folder(source, batch_id),
                f"a batch {MANIFEST} does not list (left by a commit that was interrupted, "
                f"or {MANIFEST} lost or restored from an older copy)",
            )
            for source, batch_id in unlisted
        ]

    def batch_folder(self, source: str, batch_id: int) -> Path:
        """The folder that names a batch: its games folder, else its first folder on disk."""
        trees = (*all_tables(), INDEX_TREE)
        folders = [self.batch_dir(tree, source, batch_id) for tree in trees]
        return next((folder for folder in folders if folder.exists()), folders[0])

    def _unlisted(self, manifest: dict) -> list[tuple[str, int]]:
        known = {(e["source"], e["batch_id"]) for e in manifest["batches"]}
        known |= {(e["source"], e["batch_id"]) for e in manifest.get("retired", [])}
        return sorted((k for k in self.batch_folders() if k not in known), key=lambda k: k[::-1])

    def batch_folders(self) -> set[tuple[str, int]]:
        """Every batch with a folder on disk (in any table's tree or the id indexes'), as
        (source, batch_id): a listing of each tree's source folders."""
        found: set[tuple[str, int]] = set()
        for tree in (*all_tables(), INDEX_TREE):
            for source in SOURCES:
                folder = self.root / tree / f"source={source}"
                try:
                    names = os.listdir(folder)
                except (FileNotFoundError, NotADirectoryError):
                    continue
                except OSError as error:
                    raise LakeError(folder, f"cannot be listed ({error.strerror})") from None
                found.update((source, n) for n in map(_batch_number, names) if n is not None)
        return found

    def _writer_active(self) -> bool:
        """Whether a writer holds the lake's lock now (a reader cannot always take it)."""
        try:
            handle = os.open(self.root / ".lock", os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(handle)
        return False

    def part(self, table: str, batch: Batch) -> Path:
        """The file holding one table's rows of a batch."""
        return self.batch_dir(table, batch.source, batch.batch_id) / PART

    def batch_dir(self, table: str, source: str, batch_id: int) -> Path:
        return batch_folder(self.root, table, source, batch_id)

    def index_path(self, source: str, batch_id: int) -> Path:
        """The file of one batch's sorted game ids."""
        return batch_folder(self.root, INDEX_TREE, source, batch_id) / GAME_INDEX

    def require_existing(self) -> None:
        """Refuse a lake that is not there: a reader shows what is stored, never creates."""
        if not self.root.exists():
            raise LakeError(self.root, "no lake there (the folder does not exist)")
        if not self.root.is_dir():
            raise LakeError(self.root, "not a lake (it is a file, not a folder)")

    def require_writable(self) -> None:
        """Create the lake's folder if need be, or refuse, before any work is done for it."""
        if self.root.exists() and not self.root.is_dir():
            raise LakeError(self.root, "cannot hold a lake (it is a file, not a folder)")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            with open(self.root / ".lock", "a"):
                pass
        except OSError as error:
            raise LakeError(self.root, f"cannot write a lake there ({error.strerror})") from None
        self.table_files()  # a damaged lake is refused, as readers refuse it, before any work

    def stored_ids(self) -> frozenset[int]:
        """The ids of every game in the lake's committed batches."""
        indexes = [self.game_index(b) for b in self.batches()]
        return frozenset(np.concatenate(indexes).tolist()) if indexes else frozenset()

    def stored_among(self, ids: Collection[int], batches: list[Batch] | None = None) -> set[int]:
        """Those of `ids` that the committed batches (or `batches`) hold, found in the batches'
        id indexes: no games file is read."""
        wanted = np.unique(np.fromiter(ids, np.int64, len(ids)))
        found: set[int] = set()
        batches = self.batches() if batches is None else batches
        self._forget_unlisted(batches)
        for batch in batches:
            index = self.game_index(batch)
            where = np.searchsorted(index, wanted)
            hit = where < len(index)
            hit[hit] = index[where[hit]] == wanted[hit]
            found.update(wanted[hit].tolist())
        return found

    def find_game(self, game_id: int, batches: list[Batch]) -> Batch | None:
        """The batch of `batches` holding a game, newest first, or None."""
        self._forget_unlisted(batches)
        for batch in reversed(batches):
            index = self.game_index(batch)
            where = int(np.searchsorted(index, game_id))
            if where < len(index) and index[where] == game_id:
                return batch
        return None

    def _forget_unlisted(self, batches: list[Batch]) -> None:
        """Drop every mapped index when one is of a batch no longer listed (merged, or the
        lake replaced under us)."""
        if not set(self._indexes) <= {(b.source, b.batch_id) for b in batches}:
            self._indexes.clear()

    def game_index(self, batch: Batch) -> np.ndarray:
        """A batch's sorted game ids, mapped from its index file on first use (batch ids are
        never reused, so the map stays right)."""
        key = (batch.source, batch.batch_id)
        if key not in self._indexes:
            path = self.index_path(batch.source, batch.batch_id)
            self._indexes[key] = read_game_index(path, mmap=True)
        return self._indexes[key]

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
        return self.root / STAGING / run

    @contextmanager
    def staging_run(self) -> Iterator[str]:
        """A writer's run: its own staging area, owned (its `.owner` file held locked) while
        the run lasts and removed after it. The processes the writer forks share the lock."""
        run = uuid.uuid4().hex
        area = self.staging_area(run)
        with self.locked():  # sweeping runs under this lock too: it never sees a half-made area
            area.mkdir(parents=True)
            owner = open(area / OWNER, "w")  # noqa: SIM115 - held for the whole run
            fcntl.flock(owner, fcntl.LOCK_EX | fcntl.LOCK_NB)
        try:
            yield run
        finally:
            shutil.rmtree(area, ignore_errors=True)
            owner.close()

    def stage(self, tables: Tables, run: str) -> Path:
        """Write every table of one batch (all_tables()) into a staging folder; return it."""
        staging = Path(tempfile.mkdtemp(dir=self.staging_area(run)))
        _write_batch(tables, staging)
        return staging

    def commit(self, staging: Path, source: str, derive: Derive) -> Batch | None:
        """Move a staged batch into place and list it, without the games the lake holds by now
        (looked up under the lock; `derive` redoes the rest): None when all were there."""
        with self.locked():
            self.sweep_staging()
            manifest = self.checked_manifest(writing=True)
            staged = _game_ids(staging / "games.parquet")
            stored = self.stored_among(staged, [Batch(**entry) for entry in manifest["batches"]])
            games = _drop_stored(staging, staged, stored, derive)
            batch = self._move_into_place(staging, source, games, manifest) if games else None
            if batch:
                self._write_manifest(manifest)
        shutil.rmtree(staging, ignore_errors=True)
        return batch

    def replace_batches(self, merges: list[tuple[list[Batch], Path]]) -> list[Batch]:
        """List each staged batch in place of the batches it merges, in one manifest write
        (a reader sees the old batches or the new, never both); the old files stay for
        RETIRED_FOR seconds for connections made before. Call it holding `locked()`."""
        manifest = self.checked_manifest(writing=True)
        listed = [Batch(**entry) for entry in manifest["batches"]]
        merged = {(b.source, b.batch_id) for old, _ in merges for b in old}
        if not merged <= {(b.source, b.batch_id) for b in listed}:
            raise LakeError(self.root / MANIFEST, "a batch to merge is no longer listed")
        now = datetime.now(UTC).isoformat(timespec="seconds")
        manifest["batches"] = [b.__dict__ for b in listed if (b.source, b.batch_id) not in merged]
        retired = [{"source": s, "batch_id": i, "since": now} for s, i in sorted(merged)]
        manifest["retired"] = manifest.get("retired", []) + retired
        new = []
        for old, staging in merges:
            games = sum(b.games for b in old)
            new.append(self._move_into_place(staging, old[0].source, games, manifest))
        manifest["batches"].sort(key=lambda entry: entry["batch_id"])
        self._write_manifest(manifest)
        return new

    def _move_into_place(self, staging: Path, source: str, games: int, manifest: dict) -> Batch:
        """Rename a staged batch's files into place as a new batch, numbered above the
        manifest's ids and every id on disk, and add it to `manifest` (not yet written: until
        then no reader lists it). A folder already there is a refusal, never replaced."""
        on_disk = max((batch_id for _, batch_id in self.batch_folders()), default=0)
        batch_id = max(manifest["next_batch"], on_disk + 1)
        files = {
            self.batch_dir(name, source, batch_id) / PART: f"{name}.parquet"
            for name in all_tables()
        }
        files[self.index_path(source, batch_id)] = GAME_INDEX
        refused = "a batch folder is already there; the commit is refused, not replacing it"
        for target in files:
            if target.parent.exists():
                raise LakeError(target.parent, refused)
        for target, staged in files.items():
            try:
                target.parent.mkdir(parents=True)
            except FileExistsError:  # made since the look above, by a writer not holding the lock
                raise LakeError(target.parent, refused) from None
            os.replace(staging / staged, target)
        batch = Batch(batch_id, source, games, datetime.now(UTC).isoformat(timespec="seconds"))
        manifest["next_batch"] = batch_id + 1
        manifest["batches"].append(batch.__dict__)
        return batch

    def _sweep_retired(self, manifest: dict) -> None:
        """Remove the files of batches retired more than RETIRED_FOR seconds ago, and their
        entries from `manifest` (before it is written: a crash leaves them listed, not lost)."""
        now = datetime.now(UTC)
        kept = []
        for entry in manifest.get("retired", []):
            if (now - datetime.fromisoformat(entry["since"])).total_seconds() < RETIRED_FOR:
                kept.append(entry)
                continue
            for name in (*all_tables(), INDEX_TREE):
                folder = self.batch_dir(name, entry["source"], entry["batch_id"])
                shutil.rmtree(folder, ignore_errors=True)
        if kept:
            manifest["retired"] = kept
        else:
            manifest.pop("retired", None)

    def sweep_staging(self) -> None:
        """Remove the staging areas of writers that are gone (killed before cleaning up)."""
        staging = self.root / STAGING
        if not staging.is_dir():
            return
        for area in staging.iterdir():
            if not area.is_dir():
                area.unlink(missing_ok=True)
            elif not _owned(area):
                shutil.rmtree(area, ignore_errors=True)

    def set_aside(self, source: str, batch_id: int, into: Path) -> None:
        """Move a batch's folders (every table's and its index's) under `into`, at the same
        places below it as below the lake: out of the lake, never deleted. Hold `locked()`."""
        for tree in (*all_tables(), INDEX_TREE):
            folder = self.batch_dir(tree, source, batch_id)
            if folder.exists():
                target = into / folder.relative_to(self.root)
                target.parent.mkdir(parents=True, exist_ok=True)
                os.rename(folder, target)

    def _write_manifest(self, manifest: dict) -> None:
        self._sweep_retired(manifest)
        self.replace_manifest(manifest)

    def replace_manifest(self, manifest: dict) -> None:
        """Write the manifest to a temporary file and rename it into place (readers see the
        old one or the new one). Hold `locked()`."""
        handle, name = tempfile.mkstemp(dir=self.root, prefix=".lake-", suffix=".json")
        try:
            with os.fdopen(handle, "w") as out:
                json.dump(manifest, out, indent=1)
                out.flush()
                os.fsync(out.fileno())
            os.replace(name, self.root / MANIFEST)
        finally:
            if os.path.exists(name):
                os.unlink(name)


def _write_batch(tables: Tables, folder: Path) -> None:
    """Every table's file of a batch, and the index of its game ids."""
    for name in all_tables():
        write_table(tables[name], folder / f"{name}.parquet", ROW_GROUP_ROWS.get(name, 1 << 14))
    ids = np.sort(tables["games"]["game_id"].to_numpy())
    np.save(folder / GAME_INDEX, ids.astype(np.int64), allow_pickle=False)


def _drop_stored(staging: Path, ids: list[int], stored: set[int], derive: Derive) -> int:
    """Rewrite a staged batch without the games already stored; return how many remain
    (only a writer racing another on the same games pays for the rewrite)."""
    fresh = [game_id for game_id in ids if game_id not in stored]
    if len(fresh) in (0, len(ids)):
        return len(fresh)
    keep = pa.array(fresh, pa.int64())
    tables = {}
    for name in TABLES:
        table = pq.read_table(staging / f"{name}.parquet")
        tables[name] = table.filter(pc.is_in(table["game_id"], value_set=keep))
    rule_sets = pq.read_table(staging / f"{RULE_SETS}.parquet")
    followed = tables["games"]["rules"].combine_chunks().cast(pa.string())
    tables[RULE_SETS] = rule_sets.filter(pc.is_in(rule_sets["rules"], value_set=followed))
    _write_batch({**tables, **derive(tables)}, staging)
    return len(fresh)


def _game_ids(path: Path) -> list[int]:
    try:
        return pq.read_table(path, columns=["game_id"]).column("game_id").to_pylist()
    except (OSError, pa.ArrowException) as error:
        raise LakeError(path, f"cannot be read ({error}); {CHECK_HINT}") from None


def _owned(area: Path) -> bool:
    """Whether a staging area's writer still runs (it, or a process it forked, holds the lock)."""
    try:
        with open(area / OWNER) as owner:
            fcntl.flock(owner, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:  # no owner file: left by a writer that died making it, or by an old one
        return False
    return False


def _batch_number(name: str) -> int | None:
    """The id in a batch folder's name (`batch_id=<n>`, as the lake writes it), else None."""
    digits = name.removeprefix(BATCH_PREFIX)
    if digits == name or not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        return None
    number = int(digits)
    return number if name == f"{BATCH_PREFIX}{number}" else None


# The files whose columns were found right, by path and identity (device, inode, size,
# modification time): a lake file is never rewritten in place, so each is read once a process.
_SCHEMA_SEEN: set[tuple[str, int, int, int, int]] = set()


def file_problem(path: Path, table: str, schema: pa.Schema | None) -> str | None:
    """What is wrong with one table's file, or None: missing, empty or truncated (its last
    bytes), or, given its table's `schema`, columns other than the table's (its footer only)."""
    problem = tail_problem(path)
    if problem or schema is None:
        return problem
    try:
        status = path.stat()
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    seen = (str(path), status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)
    if seen in _SCHEMA_SEEN:
        return None
    try:
        found = pq.read_schema(path).remove_metadata()
    except (OSError, pa.ArrowException) as error:
        return f"the Parquet footer cannot be read ({error})"
    if not found.equals(schema):
        return _columns_problem(found, table, schema)
    _SCHEMA_SEEN.add(seen)
    return None


def _columns_problem(found: pa.Schema, table: str, schema: pa.Schema) -> str:
    """How a file's columns differ from its table's: another stored table's, or the first
    column that differs."""
    other = next((name for name, s in TABLE_SCHEMAS.items() if found.equals(s)), None)
    if other:
        return f"holds the {other} table's columns, not the {table} table's"
    if found.names != schema.names:
        return f"columns {found.names} are not the {table} table's {schema.names}"
    field = next((f for f in found if not f.equals(schema.field(f.name))), None)
    if field is None:
        return f"its columns' details differ from the {table} table's"
    wanted = schema.field(field.name)
    return (
        f"column {field.name} is {_field_type(field)}, the {table} table's is {_field_type(wanted)}"
    )


def _field_type(field: pa.Field) -> str:
    return f"{field.type}{'' if field.nullable else ' not null'}"


def read_game_index(path: Path, mmap: bool = False) -> np.ndarray:
    """A batch's index of its game ids (mapped, not read, with `mmap`); a damaged one
    (index_problem) is a LakeError naming it."""
    problem = index_problem(path)
    try:
        if not problem:
            return np.load(path, mmap_mode="r" if mmap else None, allow_pickle=False)
    except (OSError, ValueError, EOFError) as error:
        problem = f"cannot be read ({getattr(error, 'strerror', None) or error})"
    raise LakeError(path, f"the batch's id index {problem}")


def index_problem(path: Path) -> str | None:
    """What is wrong with a batch's id index from its header and size, or None: missing,
    empty, not a NumPy file, not a list of 64-bit ids, or shorter than its header says."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size == 0:
                return "is empty"
            version = np.lib.format.read_magic(handle)
            read_header = getattr(np.lib.format, f"read_array_header_{version[0]}_0", None)
            if read_header is None:
                return f"is a NumPy file of version {version}, not 1 or 2"
            shape, _, dtype = read_header(handle)
            start = handle.tell()
    except FileNotFoundError:
        return "is missing"
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    except ValueError as error:
        return f"is not a NumPy array file ({error})"
    if dtype != np.int64 or len(shape) != 1:
        return f"holds {dtype} of shape {shape}, not a list of 64-bit game ids"
    if size != start + dtype.itemsize * shape[0]:
        return f"is {size:,} bytes, its header calls for {start + dtype.itemsize * shape[0]:,}"
    return None


def tail_problem(path: Path) -> str | None:
    """What is wrong with a Parquet file from its size and last bytes, or None: missing,
    empty, or truncated (a Parquet file ends with its footer's length and the magic). Read
    with one open, stat and positioned read: every connection checks every file."""
    tail_size = 4 + len(PARQUET_MAGIC)
    try:
        handle = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    try:
        status = os.fstat(handle)
        if stat.S_ISDIR(status.st_mode):
            return "a folder, not a Parquet file"
        size = status.st_size
        if size == 0:
            return "empty file"
        if size < len(PARQUET_MAGIC) + tail_size:
            return f"truncated ({size} bytes, no Parquet footer)"
        tail = os.pread(handle, tail_size, size - tail_size)
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    finally:
        os.close(handle)
    footer = int.from_bytes(tail[:4], "little")
    if tail[4:] != PARQUET_MAGIC or footer > size - len(PARQUET_MAGIC) - tail_size:
        return f"truncated or not Parquet ({size:,} bytes, no Parquet footer at its end)"
    return None


def parse_manifest(path: Path, text: str) -> dict:
    """The manifest in `text`, every field checked; a LakeError says what is wrong in `path`."""
    if not text.strip():
        raise LakeError(path, "the lake's manifest is empty")
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        problem = f"the lake's manifest is not JSON ({error.msg} at {where})"
        raise LakeError(path, problem) from None
    except RecursionError:
        raise LakeError(path, "the lake's manifest nests too deeply to be a manifest") from None
    except ValueError:  # Python reads no number of more than 4,300 digits
        raise LakeError(path, "the lake's manifest holds a number of thousands of digits") from None
    if not isinstance(manifest, dict):
        kind = type(manifest).__name__
        raise LakeError(path, f"the lake's manifest is a JSON {kind}, not an object")
    version = manifest.get("schema_version")
    if not _whole(version):
        raise LakeError(path, f"schema_version {_shown(version)} is not a whole number")
    if version != SCHEMA_VERSION:
        raise LakeVersionError(
            path,
            f"lake schema version {version}, this engine reads version {SCHEMA_VERSION} "
            f"({SCHEMA_CHANGE}); rebuild the lake or use a matching engine",
        )
    batches = manifest.get("batches")
    if not isinstance(batches, list):
        raise LakeError(path, f"'batches' is {_shown(batches)}, not a list")
    for index, entry in enumerate(batches):
        _check_batch(path, index, entry)
    retired = manifest.get("retired", [])
    if not isinstance(retired, list):
        raise LakeError(path, f"'retired' is {_shown(retired)}, not a list")
    for index, entry in enumerate(retired):
        _check_retired(path, index, entry)
    ids = [entry["batch_id"] for entry in batches]
    if len(set(ids)) != len(ids):
        raise LakeError(path, "a batch_id is listed twice")
    next_batch = manifest.get("next_batch")
    if not _whole(next_batch) or next_batch <= max(ids, default=0):
        raise LakeError(
            path,
            f"next_batch {_shown(next_batch)} is not a whole number above every batch_id",
        )
    return manifest


_BATCH_FIELDS = ("batch_id", "source", "games", "created")


def _check_batch(path: Path, index: int, entry: object) -> None:
    where = f"batches[{index}]"
    if not isinstance(entry, dict) or sorted(entry) != sorted(_BATCH_FIELDS):
        raise LakeError(path, f"{where} is not an object of {', '.join(_BATCH_FIELDS)}")
    if not _whole(entry["batch_id"]) or entry["batch_id"] < 1:
        raise LakeError(path, f"{where}: batch_id {_shown(entry['batch_id'])} is not 1 or more")
    if entry["source"] not in SOURCES:
        sources = " or ".join(SOURCES)
        raise LakeError(path, f"{where}: source {_shown(entry['source'])} is not {sources}")
    if not _whole(entry["games"]) or entry["games"] < 0:
        raise LakeError(path, f"{where}: games {_shown(entry['games'])} is not a count")
    if not isinstance(entry["created"], str):
        raise LakeError(path, f"{where}: created {_shown(entry['created'])} is not a date")


def _check_retired(path: Path, index: int, entry: object) -> None:
    where = f"retired[{index}]"
    if not isinstance(entry, dict) or sorted(entry) != ["batch_id", "since", "source"]:
        raise LakeError(path, f"{where} is not an object of source, batch_id, since")
    try:
        valid = _whole(entry["batch_id"]) and entry["source"] in SOURCES
        valid = valid and datetime.fromisoformat(entry["since"]).tzinfo is not None
    except (TypeError, ValueError):
        valid = False
    if not valid:
        raise LakeError(path, f"{where}: {_shown(entry)} is not a retired batch")


def _whole(value: object) -> TypeGuard[int]:
    """A whole number that fits the lake's 64-bit columns."""
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_WHOLE


def _shown(value: object, width: int = 40) -> str:
    """A manifest's value as JSON for a message, cut to `width` characters."""
    try:
        text = json.dumps(value)
    except (RecursionError, ValueError):
        text = type(value).__name__
    return text if len(text) <= width else text[: width - 1] + "…"
