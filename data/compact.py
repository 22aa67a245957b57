"""Compaction: a source's small batches merged into larger ones, swapped in for them at once.

Every table's rows are carried over as they are (the stored tables sorted by game id again, the
aggregates side by side, as queries sum them), so the lake answers the same with fewer files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.parquet as pq

from data.lake import CHECK_HINT, Batch, Lake, LakeError, Tables
from data.lake_check import table_schemas
from data.schema import RULE_SETS, TABLES, all_tables

SMALL_BATCH = 1_000  # a batch of fewer games is small
MERGED_GAMES = 20_000  # a merged batch holds at most this many games
SUGGEST_AFTER = 50  # small batches past which writers suggest `kingdoms lake compact`


@dataclass(frozen=True)
class Compacted:
    """What a compaction did: the batches merged and the batches they became."""

    merged: int
    into: int


def merge_groups(batches: list[Batch]) -> list[list[Batch]]:
    """The small batches of each source, in order, grouped into merges of at most
    MERGED_GAMES games; a group of one is left as it is (so compacting twice changes nothing)."""
    groups: list[list[Batch]] = []
    for source in sorted({b.source for b in batches}):
        group: list[Batch] = []
        for batch in (b for b in batches if b.source == source and b.games < SMALL_BATCH):
            if group and sum(b.games for b in group) + batch.games > MERGED_GAMES:
                groups.append(group)
                group = []
            group.append(batch)
        groups.append(group)
    return [group for group in groups if len(group) > 1]


def small_batches(lake: Lake) -> int:
    """How many of the lake's batches are small."""
    return sum(b.games < SMALL_BATCH for b in lake.batches())


def compact(lake: Lake, progress: Callable[[int], None] = lambda done: None) -> Compacted:
    """Merge the lake's small batches (writers wait on the lock meanwhile); `progress` hears of
    each batch read. A damaged lake is refused (LakeError) before anything is written; killed
    part-way, the lake keeps its old batches."""
    lake.table_files(table_schemas())  # every listed file checked as readers check theirs
    with lake.staging_run() as run, lake.locked():
        lake.sweep_staging()  # what an earlier compaction killed part-way left
        groups = merge_groups(lake.batches())
        merges = []
        for group in groups:
            merges.append((group, lake.stage(_merged_tables(lake, group, progress), run)))
        new = lake.replace_batches(merges) if merges else []
    return Compacted(sum(len(group) for group in groups), len(new))


def _merged_tables(lake: Lake, group: list[Batch], progress: Callable[[int], None]) -> Tables:
    """Every table of the batches in `group` as one batch's: the stored tables sorted by game
    id (a stable sort: each game's rows keep their order)."""
    parts: dict[str, list[pa.Table]] = {name: [] for name in all_tables()}
    for batch in group:
        for name in all_tables():
            path = lake.part(name, batch)
            try:
                parts[name].append(pq.read_table(path, partitioning=None))
            except (OSError, pa.ArrowException) as error:
                raise LakeError(path, f"cannot be read ({error}); {CHECK_HINT}") from None
        progress(1)
    tables = {name: pa.concat_tables(tables).unify_dictionaries() for name, tables in parts.items()}
    for name in TABLES:
        tables[name] = tables[name].sort_by("game_id").combine_chunks()
    rule_sets = tables[RULE_SETS].combine_chunks()  # each once, as a batch writes them
    first = {rules: row for row, rules in reversed(list(enumerate(rule_sets["rules"].to_pylist())))}
    tables[RULE_SETS] = rule_sets.take(sorted(first.values()))
    return tables
