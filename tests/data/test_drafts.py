"""Drafts of games being recorded, and cached reviews: written atomically, read back whole."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from data.drafts import SCHEMA as DRAFT_SCHEMA
from data.drafts import DraftError, delete_draft, list_drafts, load_draft, new_draft_id, save_draft
from data.lake import Lake
from data.reviews import SCHEMA, load_review, save_review


def test_draft_round_trip_replace_and_delete(tmp_path) -> None:
    lake = Lake(tmp_path)
    first, second = new_draft_id(), new_draft_id()
    save_draft(lake, first, 1, '[Edition "kingdoms-2011"]\n')
    save_draft(lake, second, 0, "second")
    save_draft(lake, first, 1, "changed")
    assert load_draft(lake, first).record == "changed"
    assert load_draft(lake, first).first_seat == 1
    assert {d.draft_id for d in list_drafts(lake)} == {first, second}
    assert not [p for p in (tmp_path / "drafts").iterdir() if p.name.startswith(".")]
    delete_draft(lake, first)
    assert load_draft(lake, first) is None
    assert [d.draft_id for d in list_drafts(lake)] == [second]


def test_a_draft_keeps_its_rule_set_text_and_an_older_draft_reads_without_one(tmp_path) -> None:
    lake = Lake(tmp_path)
    draft_id, older = new_draft_id(), new_draft_id()
    save_draft(lake, draft_id, 0, '[Rules "Six by six"]\n', 'base = "kingdoms-2011"\nrows = 6\n')
    assert load_draft(lake, draft_id).rules == 'base = "kingdoms-2011"\nrows = 6\n'
    # A draft written before drafts kept a rule set: the same file without the `rules` column.
    table = pa.Table.from_pylist(
        [{"draft_id": older, "updated": datetime.now(UTC), "first_seat": 1, "record": "old"}],
        schema=pa.schema([f for f in DRAFT_SCHEMA if f.name != "rules"]),
    )
    pq.write_table(table, tmp_path / "drafts" / f"{older}.parquet")
    found = load_draft(lake, older)
    assert (found.record, found.first_seat, found.rules) == ("old", 1, None)


@pytest.mark.parametrize("bad", ["../lake", "", "ABCDEF123456", "a" * 13])
def test_draft_ids_are_never_paths(tmp_path, bad: str) -> None:
    with pytest.raises(DraftError):
        load_draft(Lake(tmp_path), bad)


def test_review_round_trip(tmp_path) -> None:
    lake = Lake(tmp_path)
    assert load_review(lake, 7, 400, 1) is None
    review = pl.DataFrame(
        {
            "ply": [1, 2],
            "seat": ["A", "B"],
            "epoch": [1, 1],
            "move": ["C4 b2", "d+5 c3"],
            "expected": [[0.5, 0.5], [0.4, 0.6]],
            "played_value": [0.5, 0.55],
            "best_move": ["C4 b2", "d+5 a1"],
            "best_cell": ["b2", "a1"],
            "best_value": [0.5, 0.7],
            "loss": [0.0, 0.15],
            "gold_loss": [0.0, 9.5],
            "decided": [False, False],
            "quality": ["best", "mistake"],
            "draw_luck": [0.0, -0.12],
            "deal_luck": [0.03, 0.0],
        }
    )
    save_review(lake, 7, 400, 1, review)
    loaded = load_review(lake, 7, 400, 1)
    assert loaded.columns == SCHEMA.names
    assert loaded["quality"].to_list() == ["best", "mistake"]
    assert loaded["loss"].to_list() == pytest.approx([0.0, 0.15])
    assert load_review(lake, 7, 400, 2) is None
    # A review stored without one of today's columns is made again, not misread.
    save_review(lake, 8, 400, 1, review)
    path = next((tmp_path / "reviews" / "game_id=8").glob("*.parquet"))
    pq.write_table(pq.read_table(path).drop_columns(["gold_loss"]), path)
    assert load_review(lake, 8, 400, 1) is None
    # So is one made by another version of the evaluator.
    save_review(lake, 9, 400, 1, review)
    path = next((tmp_path / "reviews" / "game_id=9").glob("*.parquet"))
    pq.write_table(pq.read_table(path).replace_schema_metadata({b"evaluator": b"1"}), path)
    assert load_review(lake, 9, 400, 1) is None
