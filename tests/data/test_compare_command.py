"""`kingdoms compare`: the report written whole, a summary per verdict, bad input refused with
where it is wrong and nothing written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from data.cli import main
from data.lake import Lake

BAD_KEY = 'base = "kingdoms-2011"\n[gold_mine]\nfactr = 3\n'


def test_compare_writes_the_report_and_a_rerun_reuses_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lake, out = tmp_path / "lake", tmp_path / "report.html"
    arguments = ["compare", "--rules", "kingdoms-2011", "--rules", "kingdoms-2011+no-luck"]
    arguments += ["--players", "3", "--games", "24", "--skill-games", "1", "--workers", "1"]
    arguments += ["--lake", str(lake), "--out", str(out)]
    assert main(arguments) == 0
    said = capsys.readouterr()
    assert f"played 48 games into {lake.resolve()}, found 0 there; wrote {out}" in said.err
    counts = [re.match(r"(.+): (\d+) of (\d+) figures", line) for line in said.out.splitlines()]
    assert counts and all(counts)
    verdicts = {found[1]: int(found[2]) for found in counts if found}
    total = {int(found[3]) for found in counts if found}
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert total == {sum(verdicts.values())}
    assert verdicts == {verdict: html.count(f"<td>{verdict}</td>") for verdict in verdicts}
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    batches = Lake(lake).batches()
    out.unlink()
    assert main(arguments) == 0
    assert "played 0 games" in capsys.readouterr().err
    assert Lake(lake).batches() == batches
    assert out.exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--rules", "kingdoms-2011", "--rules", "{bad}"], r"bad\.toml:3:1: gold_mine\.factr"),
        (["--rules", "kingdoms-2011", "--rules", "{missing}"], r"missing\.toml: No such file"),
        (["--rules", "kingdoms-2011"], "exactly two rule sets"),
        (["--rules", "kingdoms-2011", "--rules", "kingdoms-2011"], "the same"),
        (["--rules", "kingdoms-2011", "--rules", "kingdoms-2011+nope"], "unknown variant"),
        (
            ["--rules", "kingdoms-2011", "--rules", "kingdoms-2002", "--agents", "mcts-9"],
            "--agents",
        ),
        (["--rules", "kingdoms-2011", "--rules", "kingdoms-2002", "--games", "0"], "--games"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_KEY)
    stand_ins = {"{bad}": str(bad), "{missing}": str(tmp_path / "missing.toml")}
    lake, out = tmp_path / "lake", tmp_path / "report.html"
    arguments = ["compare", *(stand_ins.get(word, word) for word in extra)]
    assert main([*arguments, "--lake", str(lake), "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert len(error.strip().splitlines()) == 1
    assert re.search(message, error)
    assert not out.exists() and not lake.exists()


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--help"]) == 0
    assert "--rules" in capsys.readouterr().out
