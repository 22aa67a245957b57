"""What a downloaded table carries: a file name and a first line naming its filters and sample."""

from __future__ import annotations

import re

import polars as pl


def export_name(what: str, description: str, sample: int) -> str:
    """The file name of a download, e.g. `tile_impact__2-players-agent-greedy__n1234.csv`."""
    slug = re.sub(r"[^a-z0-9]+", "-", description.lower()).strip("-")
    return f"{what}__{slug}__n{sample}.csv"


def export_csv(frame: pl.DataFrame, title: str, description: str, sample: str) -> str:
    """The table as CSV under a `#` line saying what it is, its filters and its sample size."""
    return f"# {title} · {description} · {sample}\n{frame.write_csv()}"


def csv_download(
    frame: pl.DataFrame, what: str, title: str, description: str, count: int, sample: str
) -> dict[str, str]:
    """The arguments of a CSV download button: the data, its file name, and a help text that
    names the file."""
    file_name = export_name(what, description, count)
    return {
        "data": export_csv(frame, title, description, sample),
        "file_name": file_name,
        "mime": "text/csv",
        "help": f"Saves {file_name}: the table under a line naming its filters and sample size.",
    }
