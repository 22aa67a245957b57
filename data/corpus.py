"""The corpus of strong play kept in the repository (data/corpus/): simulated games as the lake
needs them (seed, players, rules, line-up, actions) in Parquet, and a JSON header of what made
them with a sha256 of both, checked on every load. Built from a lake, imported as one batch once
the engine has replayed every game, verified by playing games again from their seeds."""

from __future__ import annotations

import hashlib
import json
import os
import random
import tempfile
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from functools import cache, cached_property
from pathlib import Path
from typing import TypeVar, cast

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from data.lake import Lake
from data.levels import game_levels_sql
from data.played import PlayedGame, PlayedGames
from data.reader import execute
from data.schema import ENGINE_VERSION
from data.simulate import SEED_STRIDE, SOURCE, Plan, plan_games
from data.store import Stored, store_games
from engine.agents import AGENTS_VERSION, search_budget
from engine.files import special_file_kind
from engine.kernel.replay import ReplayError, replay_games
from engine.rules import DEFAULT_EDITION, RuleSet, check_players, rule_set, rules_hash

CORPUS = Path(__file__).with_name("corpus") / "strong.parquet"
FORMAT = 2  # the corpus files' own layout: raised when a column or a header field changes
SCHEMA = pa.schema(
    [
        pa.field("part", pa.int8(), nullable=False),  # an index in the header's parts
        pa.field("seed", pa.int64(), nullable=False),
        pa.field("players", pa.int8(), nullable=False),
        pa.field("edition", pa.string(), nullable=False),
        pa.field("variant", pa.string(), nullable=False),
        pa.field("line_up", pa.string(), nullable=False),  # the seats' agents, A first, by ","
        pa.field("actions", pa.binary(), nullable=False),  # the engine's action ids, a byte each
    ]
)
# A header's part: each field and its JSON type.
PART_FIELDS = {
    "seed": int,
    "players": list,
    "agents": list,
    "edition": str,
    "variant": str,
    "games": int,
    "last_index": int,
    "finished": str,
    "command": str,
}
LONGEST_CYCLE = 64  # the most player counts or agents a simulate plan is taken to cycle through
HASHED = "sha256"  # the header's field holding the hash (of the games file, then the header)

T = TypeVar("T")


class CorpusError(ValueError):
    """A corpus that cannot be used (missing, damaged, altered, made by other agents); the
    message names the file."""

    def __init__(self, file: Path, problem: str) -> None:
        super().__init__(f"{file}: {problem}")


@dataclass(frozen=True)
class Part:
    """The games of one `kingdoms simulate` run: its plan (seed, player counts cycled, agents
    rotated over the seats, rules), how many of them the corpus holds, the highest game index
    among those, and when the last of them was committed."""

    seed: int
    players: tuple[int, ...]
    agents: tuple[str, ...]
    edition: str
    variant: str
    games: int
    last_index: int
    finished: str

    @cached_property
    def plan(self) -> Plan:
        """The simulate plan whose games these are (games 0 to last_index)."""
        return Plan(self.last_index + 1, self.players, self.agents, self.rules, self.seed)

    @cached_property
    def rules(self) -> RuleSet:
        return rule_set(self.edition, self.variant)

    @property
    def command(self) -> str:
        """The command that plays these games (and any of the plan's that the corpus lacks)."""
        words = [
            f"kingdoms simulate --games {self.last_index + 1}",
            f"--players {','.join(map(str, self.players))}",
            f"--agents {','.join(self.agents)}",
            f"--seed {self.seed}",
        ]
        if self.edition != DEFAULT_EDITION:
            words.append(f"--edition {self.edition}")
        if self.variant:
            words.append(f"--variant {self.variant}")
        return " ".join(words)


@dataclass(frozen=True)
class Corpus:
    """A loaded corpus: its games file, its header and its games, one row each."""

    path: Path
    header: dict
    parts: list[Part]
    games: pa.Table

    @property
    def header_path(self) -> Path:
        return header_path(self.path)

    def size(self) -> int:
        """The bytes of both files."""
        return self.path.stat().st_size + self.header_path.stat().st_size


def header_path(games_file: Path) -> Path:
    """The header beside a corpus's games file."""
    return games_file.with_suffix(".json")


# ---------------------------------------------------------------------------- building


def build_corpus(
    lake: Lake,
    out: Path = CORPUS,
    started: datetime | None = None,
    workers: int | None = None,
    extends: Corpus | None = None,
) -> Corpus:
    """Write the corpus of the lake's committed simulated games to `out` and its header. The
    lake may hold a corpus it `extends` (imported, then played on): that corpus's runs and its
    parts' finish times are kept, and this run is what the lake added. The run's make-time goes
    from `started` (default: its first batch's commit) to its last batch's commit, and
    `workers` (the processes that played them) gives its core-time."""
    lake.require_existing()
    rows, finished_at = simulated_games(lake)
    if rows.is_empty():
        raise CorpusError(lake.root, "holds no committed simulated game to make a corpus of")
    earlier = _earlier_games(lake, rows, extends)
    added = rows.filter(~pl.col("seed").is_in(earlier))
    new_batches = added["batch"].unique().to_list()
    if not new_batches:
        raise CorpusError(lake.root, "holds no simulated game the corpus it extends lacks")
    new_finished = {batch: finished_at[batch] for batch in new_batches}
    parts = []
    part_of = {}
    for number, (seed, group) in enumerate(rows.group_by("plan_seed", maintain_order=True)):
        parts.append(_part_of(lake.root, int(seed[0]), group, new_finished, extends))
        part_of[int(seed[0])] = number
    games = (
        rows.with_columns(part=pl.col("plan_seed").replace_strict(part_of, return_dtype=pl.Int8))
        .sort("part", "seed")
        .select(SCHEMA.names)
    )
    table = games.to_arrow().cast(SCHEMA)
    last = max(new_finished.values())
    begun = started or datetime.fromisoformat(min(new_finished.values()))
    wall = (datetime.fromisoformat(last) - begun).total_seconds()
    grown = [part for part in parts if part.seed in set(added["plan_seed"].to_list())]
    run = {
        "started": begun.isoformat(),
        "finished": last,
        "wall_s": round(wall),
        "workers": workers,
        "core_s": round(wall * workers) if workers else None,
        "commands": [part.command for part in grown],
    }
    header = {
        "format": FORMAT,
        "games_file": out.name,
        "games": table.num_rows,
        "engine_version": ENGINE_VERSION,
        "agents_version": AGENTS_VERSION,
        "made": [*(extends.header["made"] if extends else []), run],
        "built": {
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": _build_command(lake.root, out, started, workers, extends),
        },
        "parts": [{**asdict(part), "command": part.command} for part in parts],
    }
    _write(out, table, header)
    return load_corpus(out)


def _earlier_games(lake: Lake, rows: pl.DataFrame, extends: Corpus | None) -> list[int]:
    """The seeds of the games of the corpus extended, each required in the lake."""
    if extends is None:
        return []
    seeds = extends.games.column("seed").to_pylist()
    missing = len(set(seeds) - set(rows["seed"].to_list()))
    if missing:
        raise CorpusError(
            lake.root,
            f"lacks {missing:,} of the {len(seeds):,} games of {extends.path}, which it should "
            "extend: `kingdoms corpus import` it into the lake first",
        )
    return seeds


def simulated_games(lake: Lake) -> tuple[pl.DataFrame, dict[int, str]]:
    """Every committed simulated game of the lake that follows a shipped edition and variants
    (its seed, plan seed, players, rules, line-up and actions, a byte each as a corpus keeps
    them), and each batch's commit time."""
    frames, finished_at = [], {}
    for batch in (b for b in lake.batches() if b.source == SOURCE):
        games = _shipped_games(lake.part("games", batch))
        seats = _read_frame(lake.part("seats", batch), ["game_id", "seat", "agent"])
        line_ups = seats.group_by("game_id").agg(
            line_up=pl.col("agent").cast(pl.String).sort_by(pl.col("seat").cast(pl.String))
        )
        joined = games.join(line_ups, on="game_id").with_columns(batch=pl.lit(batch.batch_id))
        frames.append(joined)
        finished_at[batch.batch_id] = batch.created
    if not frames:
        return pl.DataFrame(), finished_at
    rows = pl.concat(frames, how="vertical_relaxed")
    return rows.with_columns(
        pl.col("edition", "variant").cast(pl.String),
        line_up=pl.col("line_up").list.join(","),
        plan_seed=pl.col("seed").floordiv(SEED_STRIDE),
        index=pl.col("seed").mod(SEED_STRIDE),
    ).sort("plan_seed", "index"), finished_at


def _shipped_games(path: Path) -> pl.DataFrame:
    """A batch's games of the shipped editions and variants, their actions a byte each (the
    lake stores two, the high one zero for these rules)."""
    columns = ["game_id", "seed", "players", "edition", "variant", "actions", "rules"]
    games = _read_frame(path, columns).with_columns(
        pl.col("edition", "variant", "rules").cast(pl.String)
    )
    setups = games.select("edition", "variant", "rules").unique().rows()
    shipped = [
        rules for edition, variant, rules in setups if rules == _shipped_hash(edition, variant)
    ]
    games = games.filter(pl.col("rules").is_in(shipped)).drop("rules")
    low_bytes = [actions[::2] for actions in games["actions"].to_list()]
    return games.with_columns(actions=pl.Series(low_bytes, dtype=pl.Binary))


@cache
def _shipped_hash(edition: str, variant: str) -> str:
    return rules_hash(rule_set(edition, variant))


def _read_frame(path: Path, columns: list[str]) -> pl.DataFrame:
    return cast(
        pl.DataFrame, pl.from_arrow(pq.read_table(path, columns=columns, partitioning=None))
    )


def _part_of(
    root: Path, seed: int, games: pl.DataFrame, finished_at: dict[int, str], extends: Corpus | None
) -> Part:
    """The part of one plan seed's games, its player counts and agents read off the games; it
    finished when its last batch not of the corpus extended was committed (if it has one)."""
    indexes = games["index"].to_list()
    counts = games["players"].to_list()
    players = _repeating(zip(indexes, counts, strict=True))
    rules = games.select("edition", "variant").unique()
    if players is None or len(rules) != 1:
        raise CorpusError(root, f"the games of seed {seed} do not follow one simulate plan")
    agents = _repeating(
        (index // len(players) + seat, agent)
        for index, line_up in zip(indexes, games["line_up"].to_list(), strict=True)
        for seat, agent in enumerate(line_up.split(","))
    )
    if agents is None:
        raise CorpusError(root, f"the agents of seed {seed}'s games do not rotate as simulate's")
    return Part(
        seed=seed,
        players=players,
        agents=agents,
        edition=rules["edition"][0],
        variant=rules["variant"][0],
        games=len(games),
        last_index=max(indexes),
        finished=_finished(seed, games, finished_at, extends),
    )


def _finished(
    seed: int, games: pl.DataFrame, finished_at: dict[int, str], extends: Corpus | None
) -> str:
    """When the part's last batch this run played was committed, else the extended corpus's
    time for the part."""
    played = [finished_at[b] for b in games["batch"].unique().to_list() if b in finished_at]
    if played:
        return max(played)
    assert extends is not None  # every batch is this run's when nothing is extended
    return next(part.finished for part in extends.parts if part.seed == seed)


def _repeating(pairs: Iterable[tuple[int, T]]) -> tuple[T, ...] | None:
    """The shortest cycle c with value == c[position % len(c)] for every (position, value),
    every place of c seen; None if there is none of up to LONGEST_CYCLE."""
    seen = list(dict.fromkeys(pairs))
    for length in range(1, LONGEST_CYCLE + 1):
        cycle: dict[int, T] = {}
        consistent = all(cycle.setdefault(at % length, value) == value for at, value in seen)
        if consistent and len(cycle) == length:
            return tuple(cycle[place] for place in range(length))
    return None


def _build_command(
    lake: Path, out: Path, started: datetime | None, workers: int | None, extends: Corpus | None
) -> str:
    words = ["kingdoms corpus build --from-lake", str(lake)]
    if out != CORPUS:
        words += ["--out", str(out)]
    if extends:
        words += ["--extends", str(extends.path)]
    if started:
        words += ["--started", started.isoformat()]
    if workers:
        words += ["--workers", str(workers)]
    return " ".join(words)


def _write(out: Path, table: pa.Table, header: dict) -> None:
    """Write the games file, then the header with the hash of both, each by a rename."""
    buffer = pa.BufferOutputStream()
    pq.write_table(
        table,
        buffer,
        compression="zstd",
        compression_level=19,
        use_dictionary=["edition", "variant", "line_up"],
        row_group_size=1 << 20,
    )
    data = buffer.getvalue().to_pybytes()
    header = {**header, HASHED: content_hash(data, header)}
    out.parent.mkdir(parents=True, exist_ok=True)
    _replace(out, data)
    _replace(header_path(out), (json.dumps(header, indent=1) + "\n").encode())


def _replace(path: Path, data: bytes) -> None:
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o644)  # a file of the repository, read by everyone
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def content_hash(games_file: bytes, header: dict) -> str:
    """The sha256 of the games file's bytes followed by the header (without the hash itself)
    as compact JSON with sorted keys: any change to a game or to what the header says shows."""
    digest = hashlib.sha256(games_file)
    said = {key: value for key, value in header.items() if key != HASHED}
    digest.update(json.dumps(said, sort_keys=True, separators=(",", ":")).encode())
    return digest.hexdigest()


# ---------------------------------------------------------------------------- loading


def load_corpus(path: Path = CORPUS) -> Corpus:
    """The corpus at `path`, refused with a CorpusError naming the file when either file is
    missing, its hash differs, other agents or another engine made it, or a game does not
    follow its part's plan."""
    header_file = header_path(path)
    header = _read_header(header_file)
    if header.get("format") != FORMAT:
        raise CorpusError(
            header_file, f"corpus format {header.get('format')!r}, this code reads {FORMAT}"
        )
    made_by = (header.get("agents_version"), header.get("engine_version"))
    if made_by != (AGENTS_VERSION, ENGINE_VERSION):
        raise CorpusError(
            header_file,
            f"made by agents version {made_by[0]} (engine {made_by[1]}), and these agents are "
            f"version {AGENTS_VERSION} (engine {ENGINE_VERSION}): its games would not replay "
            "from their seeds; remake it: play its header's commands into a new lake, then "
            "`kingdoms corpus build --from-lake` that lake",
        )
    data = _read_bytes(path)
    if content_hash(data, header) != header.get(HASHED):
        raise CorpusError(
            path, f"its content does not match the sha256 in {header_file.name}: changed or damaged"
        )
    try:
        games = pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as error:
        raise CorpusError(path, f"not a Parquet file ({error})") from None
    if [(f.name, f.type) for f in games.schema] != [(f.name, f.type) for f in SCHEMA]:
        raise CorpusError(path, f"its columns are not a corpus's ({', '.join(SCHEMA.names)})")
    corpus = Corpus(path, header, _parts(header, header_file), games)
    _check_games(corpus)
    return corpus


def _read_header(path: Path) -> dict:
    try:
        _refuse_special(path)
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CorpusError(path, "missing (a corpus is a games file and this header)") from None
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not UTF-8 text"
        raise CorpusError(path, f"cannot be read ({reason})") from None
    try:
        header = json.loads(text)
    except json.JSONDecodeError as error:
        raise CorpusError(
            Path(f"{path}:{error.lineno}:{error.colno}"), f"not JSON ({error.msg})"
        ) from None
    if not isinstance(header, dict):
        raise CorpusError(path, "not a corpus header (a JSON object)")
    return header


def _read_bytes(path: Path) -> bytes:
    try:
        _refuse_special(path)
        return path.read_bytes()
    except FileNotFoundError:
        raise CorpusError(path, "missing (the corpus's games file)") from None
    except OSError as error:
        raise CorpusError(path, f"cannot be read ({error.strerror})") from None


def _refuse_special(path: Path) -> None:
    kind = special_file_kind(path)
    if kind:
        raise CorpusError(path, f"not a regular file but {kind}")


def _parts(header: dict, header_file: Path) -> list[Part]:
    """The header's parts, each refused unless it is a simulate plan this code can play."""
    entries = header.get("parts")
    if not isinstance(entries, list) or not entries:
        raise CorpusError(header_file, "its `parts` are not a list of simulate plans")
    parts = []
    for number, entry in enumerate(entries):
        try:
            parts.append(_part(entry))
        except (TypeError, ValueError) as error:
            raise CorpusError(header_file, f"part {number}: {error}") from None
    return parts


def _part(entry: object) -> Part:
    """A header's part (its `command` is said again by Part), its fields' types checked, its
    player counts, agents and rules ones this code plays."""
    if not isinstance(entry, dict) or set(entry) != set(PART_FIELDS):
        raise ValueError(f"not a part (an object of {', '.join(PART_FIELDS)})")
    wrong = [name for name, kind in PART_FIELDS.items() if not isinstance(entry[name], kind)]
    players, agents = tuple(entry["players"]), tuple(entry["agents"])
    if wrong or not players or not agents or not all(isinstance(a, str) for a in agents):
        raise ValueError(f"`{(wrong or ['players'])[0]}` is not what a part holds")
    for count in players:
        check_players(count)
    for agent in agents:
        search_budget(agent)  # refuses an unknown agent
    rule_set(entry["edition"], entry["variant"])  # refuses an unknown edition or variant
    fields = {name: entry[name] for name in PART_FIELDS if name != "command"}
    return Part(**{**fields, "players": players, "agents": agents})


def _check_games(corpus: Corpus) -> None:
    """Every game is its part's: a player count, line-up and rules the part's plan seats at its
    seed's index; every part holds as many games as the header says."""
    parts = corpus.parts
    columns = corpus.games.select(SCHEMA.names[:-1]).to_pydict()
    held = [0] * len(parts)
    for row, (number, seed, players, edition, variant, line_up) in enumerate(
        zip(*columns.values(), strict=True)
    ):
        if not 0 <= number < len(parts):
            raise CorpusError(corpus.path, f"game {row}: no part {number} in the header")
        part = parts[number]
        index = seed - part.seed * SEED_STRIDE
        seated = part.plan.seatings[index % len(part.plan.seatings)]
        if not (
            0 <= index <= part.last_index
            and seated == (players, tuple(line_up.split(",")))
            and (edition, variant) == (part.edition, part.variant)
        ):
            raise CorpusError(
                corpus.path,
                f"game {row} (seed {seed}, {players} players: {line_up}) is not one of part "
                f"{number}'s games ({part.command})",
            )
        held[number] += 1
    for number, part in enumerate(parts):
        if held[number] != part.games:
            raise CorpusError(
                corpus.path,
                f"part {number} holds {held[number]} games, the header says {part.games}",
            )
    if corpus.header.get("games") != corpus.games.num_rows:
        raise CorpusError(corpus.header_path, "its game count is not the games file's")


# ---------------------------------------------------------------------------- using


def corpus_games(corpus: Corpus) -> PlayedGames:
    """The corpus's games, in its order, as a batch for the lake (seeds and agents kept)."""
    columns = corpus.games.select(["part", "seed", "players", "line_up", "actions"]).to_pydict()
    line_ups: dict[str, tuple[str, ...]] = {}  # games of one line-up share it, as a plan's do
    games = []
    for number, seed, players, line_up, actions in zip(*columns.values(), strict=True):
        agents = line_ups.setdefault(line_up, tuple(line_up.split(",")))
        rules = corpus.parts[number].rules
        games.append(PlayedGame(players, rules, actions, agents, agents, seed))
    return PlayedGames.of(games)


def import_corpus(lake: Lake, corpus: Corpus) -> Stored:
    """Add the corpus's games the lake lacks as one `simulated` batch, after the engine has
    replayed every one of them: a game it refuses leaves the lake as it was."""
    games = corpus_games(corpus)
    setups = games.setups
    try:
        replay_games(setups.distinct, setups.code, games.actions, games.offsets)
    except ReplayError as error:
        raise CorpusError(corpus.path, f"game {error.game}: {error.reason}") from None
    return store_games(lake, games, SOURCE)


def verify_corpus(corpus: Corpus, sample: int, seed: int) -> list[int]:
    """Play `sample` of the corpus's games (chosen by `seed`; all if it holds fewer) again from
    their seeds and line-ups, as simulate played them; the rows checked, in order, or a
    CorpusError naming the first that does not come out as stored."""
    count = corpus.games.num_rows
    rows = sorted(random.Random(seed).sample(range(count), min(sample, count)))
    for row in rows:
        check_game(corpus, row)
    return rows


def check_game(corpus: Corpus, row: int) -> None:
    """Play one game of the corpus again; a CorpusError if it does not come out as stored."""
    game = corpus.games.slice(row, 1).to_pylist()[0]
    part = corpus.parts[game["part"]]
    index = game["seed"] - part.seed * SEED_STRIDE
    played = plan_games(part.plan, index, index + 1).actions.tobytes()
    stored = game["actions"]
    if played != stored:
        ply = next(
            (at for at, (a, b) in enumerate(zip(played, stored, strict=False)) if a != b),
            min(len(played), len(stored)),
        )
        raise CorpusError(
            corpus.path,
            f"game {row} (seed {game['seed']}, {game['players']} players: {game['line_up']}) "
            f"does not come out as stored: its actions differ from action {ply + 1} on",
        )


def levels_by_players(corpus: Corpus) -> pl.DataFrame:
    """The corpus's games per player count and play level (the lake's rule, data/levels.py)."""
    columns = corpus.games.select(["players", "line_up"]).to_pydict()
    seats = pa.table(
        {
            "game_id": [
                row for row, line_up in enumerate(columns["line_up"]) for _ in line_up.split(",")
            ],
            "agent": [agent for line_up in columns["line_up"] for agent in line_up.split(",")],
        }
    )
    games = pa.table({"game_id": range(corpus.games.num_rows), "players": columns["players"]})
    con = duckdb.connect(":memory:")
    con.from_arrow(seats).create("corpus_seats")
    levels = execute(con, game_levels_sql("corpus_seats"))
    return (
        cast(pl.DataFrame, pl.from_arrow(games))
        .join(levels, on="game_id")
        .group_by("players", "level")
        .len("games")
        .sort("players", "level")
    )
