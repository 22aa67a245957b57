"""The corpus of strong play: built from a lake's simulated games, it rebuilds the same games in
another lake; an altered, damaged, missing or other agents' corpus is refused in one line with
exit 2 and the lake left as it was; `verify` catches a game edited behind a recomputed hash.
The tests' corpus is made from `mcts-20` games (seconds); one test reads the shipped file."""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import data.default_lake as default_lake
from data.cli import main
from data.corpus import (
    CORPUS,
    CorpusError,
    build_corpus,
    content_hash,
    header_path,
    levels_by_players,
    load_corpus,
    verify_corpus,
)
from data.default_lake import PRESETS
from data.lake import Lake
from data.reader import connect, execute
from data.schema import ENGINE_VERSION
from data.simulate import Plan, simulate
from engine.agents import AGENTS_VERSION
from engine.rules import rule_set

# The plans the tests' corpus is made of: a search at every seat, and a mixed table.
PLANS = (
    Plan(7, players=(2, 3, 4), agents=("mcts-20",), seed=5, batch_size=3),
    Plan(4, players=(2,), agents=("mcts-20", "greedy"), seed=6, batch_size=4),
)
MOST_CORPUS_BYTES = 5_000_000
GAMES_QUERY = (
    "SELECT g.game_id, g.seed, g.players, g.source, list(s.agent ORDER BY s.seat) AS agents "
    "FROM games g JOIN seats s USING (game_id) GROUP BY ALL ORDER BY g.seed"
)


@pytest.fixture(scope="module")
def source_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    lake = Lake(tmp_path_factory.mktemp("source"))
    for plan in PLANS:
        simulate(lake, plan, workers=1, progress=False)
    return lake


@pytest.fixture(scope="module")
def made(source_lake: Lake, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tests' corpus, built once; tests that alter it work on a copy (`corpus`)."""
    out = tmp_path_factory.mktemp("made") / "small.parquet"
    build_corpus(source_lake, out, workers=1)
    return out


@pytest.fixture
def corpus(made: Path, tmp_path: Path) -> Path:
    shutil.copy(made, tmp_path / made.name)
    shutil.copy(header_path(made), tmp_path / header_path(made).name)
    return tmp_path / made.name


def _games(lake: Lake) -> list[dict]:
    return execute(connect(lake), GAMES_QUERY).to_dicts()


def _contents(folder: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def _rewrite(corpus: Path, games: pa.Table | None = None, **header_changes: object) -> None:
    """Write the corpus with other games or header fields, its hash made to match again: an
    internally consistent corpus that says something else."""
    header = json.loads(header_path(corpus).read_text())
    header.update(header_changes)
    if games is not None:
        pq.write_table(games, corpus)
    header["sha256"] = content_hash(corpus.read_bytes(), header)
    header_path(corpus).write_text(json.dumps(header))


def _with_actions(corpus: Path, row: int, actions: bytes) -> None:
    games = pq.read_table(corpus)
    column = games.column("actions").to_pylist()
    column[row] = actions
    index = games.schema.get_field_index("actions")
    _rewrite(corpus, games.set_column(index, games.schema.field(index), pa.array(column)))


def test_the_header_says_what_made_the_corpus(made: Path) -> None:
    corpus = load_corpus(made)
    header = corpus.header
    assert (header["agents_version"], header["engine_version"]) == (AGENTS_VERSION, ENGINE_VERSION)
    assert header["games"] == corpus.games.num_rows == sum(plan.games for plan in PLANS)
    for part, plan in zip(corpus.parts, PLANS, strict=True):
        assert (part.seed, part.players, part.agents) == (plan.seed, plan.players, plan.agents)
        assert (part.games, part.rules) == (plan.games, rule_set())
        assert part.command == (
            f"kingdoms simulate --games {plan.games} --players "
            f"{','.join(map(str, plan.players))} --agents {','.join(plan.agents)} "
            f"--seed {plan.seed}"
        )
    (run,) = header["made"]
    assert run["commands"] == [part.command for part in corpus.parts]
    assert run["core_s"] == run["wall_s"]  # one worker


def test_the_make_time_runs_from_the_start_given_to_the_last_batch(source_lake, tmp_path) -> None:
    last = max(batch.created for batch in source_lake.batches())
    out = tmp_path / "timed.parquet"
    arguments = ["--started", "2026-01-01T10:00:00", "--workers", "2"]
    assert (
        main(
            ["corpus", "build", "--from-lake", str(source_lake.root), "--out", str(out), *arguments]
        )
        == 0
    )
    (made,) = json.loads(header_path(out).read_text())["made"]
    started = datetime(2026, 1, 1, 10, tzinfo=UTC)  # a time without a zone is UTC
    assert made["started"] == started.isoformat() and made["finished"] == last
    assert made["wall_s"] == round((datetime.fromisoformat(last) - started).total_seconds())
    assert made["core_s"] == round(2 * (datetime.fromisoformat(last) - started).total_seconds())
    built = json.loads(header_path(out).read_text())["built"]["command"]
    assert built.endswith("--started 2026-01-01T10:00:00+00:00 --workers 2")


def test_games_per_player_count_and_level_follow_the_weakest_seat(made: Path) -> None:
    rows = levels_by_players(load_corpus(made)).to_dicts()
    counts = {(row["players"], row["level"]): row["games"] for row in rows}
    # mcts-20 is below the strong budget (heuristic level); a greedy seat makes a table greedy
    assert counts == {
        (2, "heuristic"): 3,
        (3, "heuristic"): 2,
        (4, "heuristic"): 2,
        (2, "greedy"): 4,
    }


def test_an_imported_corpus_rebuilds_the_same_games(source_lake, made, tmp_path, capsys) -> None:
    lake = tmp_path / "lake"
    assert main(["corpus", "import", "--corpus", str(made), "--lake", str(lake)]) == 0
    assert _games(Lake(lake)) == _games(source_lake)  # ids (every action), seeds, agents, source
    assert [b.source for b in Lake(lake).batches()] == ["simulated"]  # one batch
    assert main(["corpus", "import", "--corpus", str(made), "--lake", str(lake)]) == 0
    assert len(Lake(lake).batches()) == 1
    assert "imported 0 games" in capsys.readouterr().err


def test_a_corpus_played_on_keeps_its_record_and_adds_the_new_run(made, tmp_path) -> None:
    lake = Lake(tmp_path / "lake")
    assert main(["corpus", "import", "--corpus", str(made), "--lake", str(lake.root)]) == 0
    more = Plan(2, players=(3,), agents=("mcts-20",), seed=8, batch_size=2)
    simulate(lake, more, workers=1, progress=False)
    earlier = load_corpus(made)
    grown = build_corpus(lake, tmp_path / "grown.parquet", workers=1, extends=earlier)
    assert grown.games.num_rows == earlier.games.num_rows + more.games
    first, run = grown.header["made"]
    assert first == earlier.header["made"][0]
    new_part = grown.parts[-1]
    assert run["commands"] == [new_part.command] and new_part.seed == more.seed
    assert run["finished"] == new_part.finished == lake.batches()[-1].created
    assert [part.finished for part in grown.parts[:-1]] == [p.finished for p in earlier.parts]
    assert grown.header["built"]["command"].endswith(f"--extends {made} --workers 1")


def test_extending_a_corpus_the_lake_lacks_is_refused(source_lake, made, tmp_path) -> None:
    other = Lake(tmp_path / "other")
    simulate(other, Plan(2, players=(2,), agents=("greedy",), seed=9), workers=1, progress=False)
    count = sum(plan.games for plan in PLANS)
    with pytest.raises(CorpusError, match=f"lacks {count} of the {count} games of .*corpus import"):
        build_corpus(other, tmp_path / "out.parquet", extends=load_corpus(made))


def _with_part(corpus: Path, **fields: object) -> None:
    """The first part of the header changed, the hash made to match."""
    parts = json.loads(header_path(corpus).read_text())["parts"]
    _rewrite(corpus, parts=[{**parts[0], **fields}, *parts[1:]])


def _changed_byte(corpus: Path) -> None:
    data = bytearray(corpus.read_bytes())
    data[len(data) // 2] ^= 0x01
    corpus.write_bytes(bytes(data))


def _changed_header_byte(corpus: Path) -> None:
    header = header_path(corpus)
    header.write_text(header.read_text().replace('"wall_s": ', '"wall_s": 1', 1))


ALTERATIONS = {
    "a changed byte in the games file": (_changed_byte, "does not match the sha256"),
    "a changed byte in the header": (_changed_header_byte, "does not match the sha256"),
    "a missing games file": (lambda corpus: corpus.unlink(), "missing"),
    "a missing header": (lambda corpus: header_path(corpus).unlink(), "missing"),
    "a games file that is a pipe": (
        lambda corpus: (corpus.unlink(), os.mkfifo(corpus)),
        "not a regular file but a pipe",
    ),
    "a header that is not JSON": (
        lambda corpus: header_path(corpus).write_text('{"format": 1,\n  oops}'),
        ".json:2:3: not JSON",
    ),
    "other agents": (
        lambda corpus: _rewrite(corpus, agents_version=AGENTS_VERSION + 1),
        f"made by agents version {AGENTS_VERSION + 1}",
    ),
    "another engine": (
        lambda corpus: _rewrite(corpus, engine_version="0.0.1"),
        "(engine 0.0.1)",
    ),
    "a game the rules refuse": (
        lambda corpus: _with_actions(corpus, 3, pq.read_table(corpus)["actions"][3].as_py()[:-1]),
        "game 3: its actions end before the game does",
    ),
    "a part of an unknown agent": (
        lambda corpus: _with_part(corpus, agents=["nobody"]),
        "small.json: part 0: unknown agent 'nobody'",
    ),
    "a part whose seed is text": (
        lambda corpus: _with_part(corpus, seed="5"),
        "small.json: part 0: `seed` is not what a part holds",
    ),
    "a game not of its part": (
        lambda corpus: _rewrite(
            corpus, pq.read_table(corpus).set_column(1, "seed", pa.array(range(11), pa.int64()))
        ),
        "game 0 (seed 0, 2 players: mcts-20,mcts-20) is not one of part 0's games",
    ),
}


@pytest.mark.parametrize("alteration", ALTERATIONS)
def test_an_altered_corpus_is_refused_and_the_lake_left_as_it_was(
    corpus, tmp_path, capsys, alteration
) -> None:
    alter, said = ALTERATIONS[alteration]
    lake = tmp_path / "lake"
    simulate(Lake(lake), Plan(3, seed=1), progress=False)
    before = _contents(lake)
    alter(corpus)
    assert main(["corpus", "import", "--corpus", str(corpus), "--lake", str(lake)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and corpus.stem in err, err
    assert _contents(lake) == before


@pytest.mark.parametrize("alteration", ["a changed byte in the games file", "other agents"])
def test_the_default_lake_refuses_an_altered_corpus_before_writing(
    corpus, tmp_path, capsys, monkeypatch, alteration
) -> None:
    alter, said = ALTERATIONS[alteration]
    alter(corpus)
    monkeypatch.setattr(default_lake, "CORPUS", corpus)
    lake = Lake(tmp_path / "lake")
    assert main(["simulate", "--default-lake", "--lake", str(lake.root)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err
    assert lake.batches() == []


def test_the_default_lake_starts_from_the_corpus(made, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(default_lake, "CORPUS", made)
    monkeypatch.setitem(PRESETS, "default", ((6, ("heuristic", "random")),))
    lake = Lake(tmp_path / "lake")
    assert main(["simulate", "--default-lake", "--lake", str(lake.root), "--workers", "1"]) == 0
    sources = [(b.source, b.games) for b in lake.batches()]
    assert sources[0] == ("simulated", load_corpus(made).games.num_rows)
    assert sources[1:] == [("simulated", 6), ("recorded", 5)]


def test_the_default_lake_seats_a_random_agent_at_no_more_than_a_fifth_of_its_games() -> None:
    """Counted from the seatings simulate plays, without the corpus's games (which have none):
    the share with the corpus is smaller still."""
    random_seated = total = 0
    for games, agents in PRESETS["default"]:
        seatings = Plan(games, agents=agents).seatings
        for index in range(games):
            total += 1
            random_seated += "random" in seatings[index % len(seatings)][1]
    assert random_seated / total <= 0.2
    assert all("strong" not in agents for _, agents in PRESETS["default"])


def test_verify_plays_the_games_again(made, capsys) -> None:
    corpus = load_corpus(made)
    assert verify_corpus(corpus, sample=100, seed=0) == list(range(corpus.games.num_rows))
    assert main(["corpus", "verify", "--corpus", str(made), "--sample", "2", "--seed", "4"]) == 0
    assert "2 of 11 games played again came out identical" in capsys.readouterr().err


def test_verify_catches_a_game_whose_actions_were_edited(corpus, capsys) -> None:
    """Two games of the same table swap actions: each is a legal game, the hash is made to
    match, so only playing them again from their seeds shows it."""
    games = pq.read_table(corpus)["actions"].to_pylist()
    _with_actions(corpus, 3, games[0])  # rows 0 and 3: two-player games of the search
    load_corpus(corpus)  # consistent: loads
    assert main(["corpus", "verify", "--corpus", str(corpus), "--sample", "100"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game 3 (seed 5000018, 2 players" in err, err
    assert "does not come out as stored" in err


def test_info_says_what_the_corpus_holds(made, capsys) -> None:
    assert main(["corpus", "info", "--corpus", str(made), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["games"] == 11
    assert info["bytes"] == made.stat().st_size + header_path(made).stat().st_size
    assert {"players": 2, "level": "greedy", "games": 4} in info["games_by_players_and_level"]
    assert main(["corpus", "info", "--corpus", str(made)]) == 0
    out = capsys.readouterr().out
    assert "part 1: 4 games: kingdoms simulate --games 4 --players 2 --agents mcts-20,greedy" in out


@pytest.mark.parametrize("action", ["build", "verify", "import", "info"])
def test_every_corpus_command_has_help(action, capsys) -> None:
    assert main(["corpus", action, "--help"]) == 0
    assert "usage: kingdoms corpus" in capsys.readouterr().out


def test_a_lake_without_simulated_games_makes_no_corpus(tmp_path) -> None:
    (tmp_path / "lake").mkdir()
    with pytest.raises(CorpusError, match="no committed simulated game"):
        build_corpus(Lake(tmp_path / "lake"), tmp_path / "c.parquet")


def test_the_shipped_corpus_loads_with_its_hash_and_versions() -> None:
    corpus = load_corpus(CORPUS)  # the sha256 of both files is checked here
    header = corpus.header
    assert (header["agents_version"], header["engine_version"]) == (AGENTS_VERSION, ENGINE_VERSION)
    assert corpus.size() <= MOST_CORPUS_BYTES
    assert header["games"] == corpus.games.num_rows > 0
    assert corpus.parts[0].agents == ("strong",) and corpus.parts[0].players == (2, 3, 4)


@pytest.mark.slow
def test_a_shipped_game_comes_out_the_same_from_its_seed() -> None:
    """Today's agents still play the shipped games (a strong game: about 5 s)."""
    assert verify_corpus(load_corpus(CORPUS), sample=1, seed=0)
