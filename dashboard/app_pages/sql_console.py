"""SQL: a read-only console over the lake's views: examples, result table, CSV, schema."""

from __future__ import annotations

import streamlit as st

from dashboard.charts import result_chart, vega_lite_spec
from dashboard.lake_data import ROW_CAP, QueryError, run_sql, sql_schema

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
    f"Read-only SQL over the lake's views ({VIEWS}). One SELECT at a time, on a connection of "
    "its own that can read the lake's tables and nothing else: it cannot write or read any "
    f"file, change a setting or keep anything after the query. At most {ROW_CAP:,} rows."
)
example = st.selectbox("Start from an example", list(EXAMPLES), key="sql_example")
sql = st.text_area("SQL", EXAMPLES[example], height=180, key=f"sql_text_{example}")
st.button("Run", type="primary", key="sql_run")
if sql.strip():
    try:
        answer = run_sql(sql)
    except QueryError as refusal:
        st.error(f"Refused: {refusal}")
    else:
        result = answer.frame
        cut = f" … truncated: only the first {ROW_CAP:,} rows are shown" if answer.truncated else ""
        st.caption(f"{result.height:,} rows{cut}")
        table, chart_column = st.columns([3, 2])
        table.dataframe(result, hide_index=True, width="stretch")
        chart = result_chart(result)
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
