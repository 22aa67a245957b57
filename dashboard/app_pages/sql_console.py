"""SQL: a read-only console over the lake's views: examples, result table, CSV, schema."""

from __future__ import annotations

import streamlit as st

from dashboard.charts import result_chart, vega_lite_spec
from dashboard.lake_data import ROW_CAP, QueryError, run_sql, sql_schema
from data.console import RESULT_BYTES, SQL_LIMIT, TIME_LIMIT
from data.console_sandbox import MEMORY_LIMIT

EXAMPLES = {
    "Win share by agent": (
        "SELECT agent, count(*) AS seats, round(avg(win_share), 3) AS mean_win_share\n"
        "FROM seats\nGROUP BY agent\nORDER BY mean_win_share DESC"
    ),
    "Best castle cells": (
        "SELECT cell, count(*) AS castles, round(avg(gold), 1) AS mean_gold\n"
        "FROM castles\nGROUP BY cell\nORDER BY mean_gold DESC\nLIMIT 10"
    ),
    "Games per batch": (
        "SELECT batch_id, source, count(*) AS games, min(created) AS created\n"
        "FROM games\nGROUP BY ALL\nORDER BY batch_id DESC"
    ),
    "Dragons: who they hurt": (
        "SELECT seat = placer AS on_placer, count(*) AS impacts,\n"
        "       round(avg(impact), 2) AS mean_impact\n"
        "FROM tile_impacts\nWHERE tile = 'DR'\nGROUP BY ALL"
    ),
}
VIEWS = "games, seats, moves, epoch_scores, castles, tile_impacts, cells"

st.title("SQL console")
st.caption(
    f"Read-only SQL over the lake's views ({VIEWS}). One query at a time, in a process of its "
    "own whose connection reads the lake's tables and nothing else: it cannot write or read any "
    f"file, change a setting or keep anything after the query. At most {SQL_LIMIT:,} characters "
    f"of SQL, {TIME_LIMIT:g} s, {MEMORY_LIMIT >> 30} GB of memory, {ROW_CAP:,} rows and "
    f"{RESULT_BYTES >> 20} MB of result. The sidebar's filters do not apply here: a query sees "
    "every game of the lake."
)
example = st.selectbox("Start from an example", list(EXAMPLES), key="sql_example")
sql = st.text_area(
    "SQL", EXAMPLES[example], height=180, max_chars=SQL_LIMIT, key=f"sql_text_{example}"
)
st.button("Run", type="primary", key="sql_run")
if sql.strip():
    try:
        answer = run_sql(sql)
    except QueryError as refusal:
        st.error("Refused: the query did not run, for the reason below.")
        st.code(str(refusal), language=None)  # DuckDB's hints, its caret under the query
    else:
        result = answer.frame
        cut = f" … truncated: only the first {ROW_CAP:,} rows are shown" if answer.truncated else ""
        st.caption(f"{result.height:,} rows{cut}")
        table, chart_column = st.columns([3, 2])
        table.dataframe(result, hide_index=True, width="stretch")
        flat = [name for name, kind in result.schema.items() if not kind.is_nested()]
        chart = result_chart(result.select(flat))  # lists, maps and structs label no bar
        if chart is not None:
            chart_column.vega_lite_chart(vega_lite_spec(chart), width="stretch")
        st.download_button(
            "Download result (CSV)", answer.csv, file_name="query.csv", mime="text/csv"
        )

with st.expander("Schema: the views, their columns and what each means"):
    schema = sql_schema()
    views = list(dict.fromkeys(schema["view"]))
    view = st.selectbox("View", views, key="sql_schema_view")
    columns = schema.filter(schema["view"] == view)
    st.caption(f"`{view}`: {columns['holds'][0]}")
    st.dataframe(columns.select("column", "type", "meaning"), hide_index=True, width="stretch")
