"""Resuming by shard markers (data/shards.py), with the local executor: a rerun plays only the
shards not committed, and a marker whose batch the manifest no longer lists counts for nothing."""

from __future__ import annotations

from data.lake import Lake
from data.shards import FOLDER, committed_shards, mark_committed
from data.simulate import Plan, shard_key, shards, simulate
from engine.rules import rule_set

PLAN = Plan(30, seed=12, batch_size=10)


def test_each_committed_shard_is_marked_with_its_batch(tmp_path):
    lake = Lake(tmp_path)
    simulate(lake, PLAN, progress=False)
    assert committed_shards(lake, shard_key(PLAN)) == set(shards(PLAN, 1))
    assert len(lake.batches()) == 3


def test_a_rerun_plays_only_the_shards_not_marked(tmp_path):
    lake = Lake(tmp_path)
    simulate(lake, PLAN, progress=False)
    (tmp_path / FOLDER / shard_key(PLAN) / "10-20.json").unlink()
    again = simulate(lake, PLAN, progress=False)
    assert (again.added, again.duplicates) == (0, PLAN.games)  # the replayed shard was stored
    assert len(lake.batches()) == 3
    assert committed_shards(lake, shard_key(PLAN)) == set(shards(PLAN, 1))


def test_a_marker_of_a_batch_not_listed_counts_for_nothing(tmp_path):
    lake = Lake(tmp_path)
    mark_committed(lake, shard_key(PLAN), (0, 10), batch_id=7)
    assert committed_shards(lake, shard_key(PLAN)) == set()
    assert simulate(lake, PLAN, progress=False).added == PLAN.games


def test_plans_that_differ_keep_apart_markers():
    other_rules = Plan(30, seed=12, batch_size=10, rules=rule_set(variants="score-as-you-go"))
    keys = {
        shard_key(PLAN),
        shard_key(Plan(30, seed=13, batch_size=10)),
        shard_key(Plan(30, seed=12, batch_size=10, agents=("greedy",))),
        shard_key(Plan(30, seed=12, batch_size=10, players=(3,))),
        shard_key(other_rules),
    }
    assert len(keys) == 5
    assert shard_key(Plan(60, seed=12, batch_size=5)) == shard_key(PLAN)  # shards say the range
