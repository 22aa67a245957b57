"""Grouping rows by keys and adding up values per group, with numpy and compiled passes: the
machinery every aggregate of data/aggregates.py is written in."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numba
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


class Key(NamedTuple):
    """A code per row, and the values each code stands for: a column each, named."""

    codes: np.ndarray
    values: pa.Table

    @property
    def single(self) -> pa.Array:
        """The values of a key of one column."""
        return self.values.column(0).combine_chunks()


def key(name: str, codes: np.ndarray, values: pa.Array | Sequence) -> Key:
    """A key named `name` whose codes index `values`."""
    return Key(np.asarray(codes).astype(np.int64), pa.table({name: values}))


def column_key(table: pa.Table, name: str) -> Key:
    """A column of `table` as integer codes and their values (null is a value of its own)."""
    array = table[name].combine_chunks()
    if not pa.types.is_dictionary(array.type):
        array = array.dictionary_encode()
    values = pa.concat_arrays([array.dictionary, pa.nulls(1, array.dictionary.type)])
    codes = pc.fill_null(array.indices, len(array.dictionary)).to_numpy()
    return key(name, codes, values)


def mapped(key_: Key, function: Callable, dtype=np.int64) -> np.ndarray:
    """`function` of every row's value, computed once per distinct value."""
    return np.array([function(v) for v in key_.single.to_pylist()], dtype=dtype)[key_.codes]


def relabel(key_: Key, name: str, function: Callable, type_: pa.DataType | None = None) -> Key:
    """The key `name` of `function` of every row's value (equal results share a code; strings
    unless `type_` says otherwise)."""
    labels = [function(v) for v in key_.single.to_pylist()]
    names = list(dict.fromkeys(labels))
    codes = np.array([names.index(label) for label in labels])[key_.codes]
    return key(name, codes, pa.array(names, type_ or pa.string()))


def numbers(name: str, codes: np.ndarray, type_: pa.DataType, low: int = 0) -> Key:
    """Small integers from `low` up, keyed by how far they are above it."""
    values = np.arange(low, low + codes.max(initial=0) + 1)
    return key(name, codes, pa.array(values, type=type_))


def take(key_: Key, rows: np.ndarray) -> Key:
    return Key(key_.codes[rows], key_.values)


def composite(keys: Sequence[Key]) -> Key:
    """Keys of the same rows as one: a code per distinct combination, and their values (grouping
    by it costs one key, not one per column)."""
    combined = np.zeros(len(keys[0].codes), dtype=np.int64)
    for codes, values in keys:
        combined = combined * values.num_rows + codes
    _, first, codes = np.unique(combined, return_index=True, return_inverse=True)
    return Key(codes, _values_at([take(key_, first) for key_ in keys]))


def _values_at(keys: Sequence[Key]) -> pa.Table:
    """The values of every key at its codes, its columns named as the key's."""
    columns: dict[str, pa.Array] = {}
    for codes, values in keys:
        taken = values.take(codes)
        for name in taken.column_names:
            if name in columns:
                raise ValueError(f"two keys hold '{name}'")
            columns[name] = taken[name].combine_chunks()
    return pa.table(columns)


def aggregate(
    schema: pa.Schema,
    keys: Sequence[Key],
    sums: Sequence[np.ndarray],
    rows: np.ndarray | None = None,
) -> pa.Table:
    """A row per distinct combination of the keys over `rows` (all rows if None): the keys, the
    row count, then the sum of each of `sums` (a value per selected row), in `schema`'s types."""
    rows = np.arange(len(keys[0].codes)) if rows is None else rows
    weights = np.empty((len(rows), len(sums)))  # a row of sums per row, as the grouping reads
    for column, values in enumerate(sums):
        weights[:, column] = values
    group, first, counts = number_groups(*combined(keys, rows))
    totals = sum_groups(group, len(first), weights)
    return grouped_table(schema, keys, rows[first], counts, totals)


def combined(keys: Sequence[Key], rows: np.ndarray) -> tuple[np.ndarray, int]:
    """The keys of every selected row as one number below a bound; and the bound."""
    codes = tuple(np.ascontiguousarray(key_.codes, dtype=np.int64) for key_ in keys)
    radix = np.array([key_.values.num_rows for key_ in keys], dtype=np.int64)
    mixed = _combine(rows, codes, radix)
    bound = math.prod(radix.tolist())  # far below 2**63: a batch has few distinct keys
    if bound > max(4 * len(rows), 1 << 16):  # too sparse to count in place: number them first
        mixed = np.unique(mixed, return_inverse=True)[1]
        bound = int(mixed.max(initial=-1)) + 1
    return mixed, bound


def grouped_table(
    schema: pa.Schema, keys: Sequence[Key], chosen: np.ndarray, counts: np.ndarray, totals
) -> pa.Table:
    """An aggregate's table: the keys of each group (read at one of its rows, `chosen`), its
    row count, then its sums (a row per sum)."""
    keyed = _values_at([Key(np.asarray(k.codes)[chosen], k.values) for k in keys])
    columns = [*keyed.columns, counts, *totals]
    return pa.Table.from_arrays(
        [_typed(c, f.type) for c, f in zip(columns, schema, strict=True)], schema=schema
    )


def stacked_table(
    schema: pa.Schema, parts: Sequence[tuple[Sequence[Key], np.ndarray, np.ndarray, np.ndarray]]
) -> pa.Table:
    """The aggregate tables of several groupings one under the other, built as one table: each
    part is a grouping's keys (the keys at one place in every part hold the same columns), a
    row of each of its groups, their row counts and their sums (a row per sum)."""
    keys = []
    for position in zip(*(part[0] for part in parts), strict=True):
        starts: dict[int, int] = {}  # where each distinct table of values begins
        values: list[pa.Table] = []
        codes: list[np.ndarray] = []
        for key_, (_, chosen, _, _) in zip(position, parts, strict=True):
            if id(key_.values) not in starts:
                starts[id(key_.values)] = sum(table.num_rows for table in values)
                values.append(key_.values)
            codes.append(np.asarray(key_.codes)[chosen] + starts[id(key_.values)])
        keys.append(Key(np.concatenate(codes), pa.concat_tables(values)))
    counts = np.concatenate([part[2] for part in parts])
    totals = np.hstack([part[3] for part in parts])
    return grouped_table(schema, keys, np.arange(len(counts)), counts, totals)


@numba.njit(cache=True)
def _combine(rows, codes, radix):
    """The codes of every selected row as one number, mixed radix (one pass, no copies)."""
    combined = np.empty(len(rows), dtype=np.int64)
    for i in range(len(rows)):
        value = 0
        for key_ in range(len(codes)):
            value = value * radix[key_] + codes[key_][rows[i]]
        combined[i] = value
    return combined


@numba.njit(cache=True)
def number_groups(combined, bound):
    """The groups of rows with equal `combined` (each below `bound`), numbered in its order:
    each row's group, then a row of each group and its size (counted in place, not sorted)."""
    sizes = np.zeros(bound, dtype=np.int64)
    holder = np.empty(bound, dtype=np.int64)
    for row in range(len(combined)):
        sizes[combined[row]] += 1
        holder[combined[row]] = row
    number = np.empty(bound, dtype=np.int64)
    groups = 0
    for value in range(bound):
        number[value] = groups
        groups += sizes[value] > 0
    first = np.empty(groups, dtype=np.int64)
    counts = np.empty(groups, dtype=np.int64)
    for value in range(bound):
        if sizes[value]:
            first[number[value]], counts[number[value]] = holder[value], sizes[value]
    group = np.empty(len(combined), dtype=np.int64)
    for row in range(len(combined)):
        group[row] = number[combined[row]]
    return group, first, counts


@numba.njit(cache=True)
def sum_groups(group, groups, weights):
    """The sum of each column of `weights` (a row per row) over each group, added in row
    order; a row per column."""
    totals = np.zeros((groups, weights.shape[1]), dtype=np.float64)
    for row in range(len(group)):
        for sum_ in range(weights.shape[1]):
            totals[group[row], sum_] += weights[row, sum_]
    return totals.T


def _typed(
    column: pa.Array | pa.ChunkedArray | np.ndarray, type_: pa.DataType
) -> pa.Array | pa.ChunkedArray:
    """A result column in its SQL type (integer sums, added up as floats, exactly). Arrow
    columns are cast as they are: `pa.array` would rebuild them value by value in Python."""
    if isinstance(column, np.ndarray):
        if not pa.types.is_floating(type_):
            column = np.rint(column).astype(np.int64)
        column = pa.array(column)
    return column.cast(type_)


def rolled(key_: Key) -> Key:
    """The key with every row's value rolled up into one null (a grouping over all of them)."""
    nulls = {field.name: pa.nulls(1, field.type) for field in key_.values.schema}
    return Key(np.zeros(len(key_.codes), dtype=np.int64), pa.table(nulls))


@numba.njit(cache=True)
def game_sums(game, fine, groups_of, groups, values, alike, alike_patterns, partner):
    """The sums over games that intervals treating the game as the unit need, beyond the sums
    over rows. Rows come game by game; row i is in fine group `fine[i]`, which is in group
    `groups_of[fine[i], p]` of each pattern p; `values` holds a row of values per row. Per
    group: its games and Σ n_g², then per value Σ S_g² and Σ S_g n_g (n_g the game's rows in
    the group, S_g the sum of their values); a row per sum.

    A game whose seats are `alike` (one agent and player at every seat) has the same rows in a
    group that keeps the seat as in its `partner`, the group that rolls the seat up: so only
    the `alike_patterns` (those that keep it) are summed for it, and their sums go to both."""
    width = values.shape[1]
    totals = np.zeros((groups, 2 + 2 * width), dtype=np.float64)
    shared = np.zeros((groups, 2 + 2 * width), dtype=np.float64)  # from games alike
    every_pattern = np.arange(groups_of.shape[1])
    counts = np.zeros(groups, dtype=np.int64)  # the game's n_g in each group
    open_sums = np.zeros((groups, width), dtype=np.float64)  # and its S_g
    touched = np.empty(groups, dtype=np.int64)
    held = 0
    for i in range(len(game)):
        patterns = alike_patterns if alike[game[i]] else every_pattern
        row_groups, row = groups_of[fine[i]], values[i]
        for pattern in patterns:
            group = row_groups[pattern]
            if counts[group] == 0:
                touched[held] = group
                held += 1
            counts[group] += 1
            sums = open_sums[group]
            for v in range(width):
                sums[v] += row[v]
        if i + 1 < len(game) and game[i + 1] == game[i]:
            continue
        into = shared if alike[game[i]] else totals
        for t in range(held):  # the game's last row: its sums join the totals
            group = touched[t]
            n = float(counts[group])
            total, sums = into[group], open_sums[group]
            total[0] += 1
            total[1] += n * n
            for v in range(width):
                total[2 + 2 * v] += sums[v] * sums[v]
                total[3 + 2 * v] += sums[v] * n
                sums[v] = 0.0
            counts[group] = 0
        held = 0
    for group in range(groups):
        if partner[group] >= 0:
            totals[group] += shared[group]
            totals[partner[group]] += shared[group]
    return np.ascontiguousarray(totals.T)
