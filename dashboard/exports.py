"""What a downloaded table carries: a file name and columns naming its filters and sample, so
that the file is a plain table (a header, then rows) every reader opens without options."""

from __future__ import annotations

import re

import polars as pl

CONTEXT_COLUMNS = ("table", "filters", "sample_size", "sample")


def export_name(what: str, description: str, sample: int) -> str:
    """The file name of a download, e.g. `tile_impact__2-players-agent-greedy__n1234.csv`."""
    slug = re.sub(r"[^a-z0-9]+", "-", description.lower()).strip("-")
    return f"{what}__{slug}__n{sample}.csv"


def export_csv(frame: pl.DataFrame, title: str, description: str, count: int, sample: str) -> str:
    """The table as CSV, its context repeated on every row in the last columns: what it is
    (`table`), its filters, play level first (`filters`), and its sample (`sample_size`, and
    `sample` in words)."""
    context = [
        pl.lit(value).alias(name)
        for name, value in zip(CONTEXT_COLUMNS, (title, description, count, sample), strict=True)
    ]
    return frame.with_columns(context).write_csv()


def csv_download(
    frame: pl.DataFrame, what: str, title: str, description: str, count: int, sample: str
) -> dict[str, str]:
    """The arguments of a CSV download button: the data, its file name, and a help text that
    names the file."""
    file_name = export_name(what, description, count)
    return {
        "data": export_csv(frame, title, description, count, sample),
        "file_name": file_name,
        "mime": "text/csv",
        "help": f"Saves {file_name}: a plain table, its filters and sample size in the last "
        "columns.",
    }
