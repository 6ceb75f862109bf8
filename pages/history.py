"""History: explore results files in the browser — AccelBench exports from any machine and other tools'
results (wide or long tables, JSON, time series, telemetry logs, with metadata sidecars) through a mapping. Each file is checked on its own; filter, group, pivot,
chart, pin a baseline, see which settings differ, and export.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # standalone runs put pages/ on the path, not the repo root
    sys.path.insert(0, str(ROOT))

from ui.frame import ensure_frame

ensure_frame(__file__)  # a deep link to a fresh server is routed through app.py (menu, wide layout)

from engine.catalog.demo import DEMO_MAX_UPLOAD_MB
from engine.imports.identity.devices import NO_DEVICE
from engine.imports.read.known_formats import system_description
from engine.imports.read.own_exports import KINDS as OWN_KINDS
from engine.imports.shape.companion import companions
from engine.imports.view.default_view import add_views
from engine.imports.view.imported_rates import headline, headline_why
from engine.results import history_files
from engine.results.csvio import CsvError
from ui import history_explore as explore
from ui.common import demo_banner, demo_mode, plain, show_chart, store, switch_page
from ui.compare_imported import offer as offer_to_compare
from ui.history_import import import_step
from ui.history_joins import companion_joined, join_companions
from ui.history_load import (
    all_series,
    alone_as_results,
    from_folder,
    from_store,
    from_uploads,
    sample_preview,
    save_export,
    series_files,
    sidecars,
)
from ui.history_series import series_tab
from ui.history_views import extra_tabs

st.title("History")
st.caption(
    "Load results files — AccelBench exports (`python -m engine results export --out runs.csv` on any machine) "
    "or another tool's results: a vendor's table, an MLPerf or DAWNBench file, JSON, a training or telemetry log "
    "— then filter, group, chart and export them."
)
demo = demo_mode()
demo_banner()

left, right = st.columns([3, 2])
with left:
    uploads = st.file_uploader(
        "Results files (CSV, TSV, JSON, logs; a JSON/YAML sidecar with the same name adds its settings)",
        type=list(history_files.FILE_TYPES),
        accept_multiple_files=True,
        key="hist_upload",
        max_upload_size=DEMO_MAX_UPLOAD_MB if demo else None,
        help="Drop several at once. A file with a problem is reported on its own; the others still load.",
    )
with right:
    folder_files = history_files.folder_files()
    use_folder = st.toggle(
        f"Include data/history/ ({len(folder_files)} file{'s' if len(folder_files) != 1 else ''})",
        key="hist_folder",
        disabled=not folder_files,
        help="CSV files kept in the project's data/history folder (a sample export and a foreign table ship there).",
    )
    use_store = st.toggle(
        "Include this machine's runs",
        key="hist_store",
        help="The runs in the results store (of a very large one, the newest first).",
    )
    store_item = from_store(store()) if use_store else None  # a store of 100,000 runs: the newest 10,000 first
    if demo:
        st.caption(f"Demo: files up to {DEMO_MAX_UPLOAD_MB} MB; they stay in this browser session and are never saved.")

items = from_uploads(list(uploads or []), max_bytes=DEMO_MAX_UPLOAD_MB * 2**20 if demo else None) + (
    from_folder() if use_folder else []
)
if store_item is not None:
    items.append(store_item)

frames = []
paired = sidecars(items)
items = alone_as_results(items, paired)
foreign = {i.name: i for i in items if i.kind == "foreign" and i.raw is not None}
joins = companions({n: i.raw for n, i in foreign.items() if i.raw is not None})  # batch table → its table
used_sidecars = {s for s, _ in paired.values()} | set(series_files(items).values())
for item in items:
    if item.kind == "sidecar":
        if item.name in used_sidecars:
            continue
        if described := system_description(item.settings, Path(item.name).stem):
            st.info(f"**{plain(item.name)}** is {plain(described)}", icon=":material/info:")
        else:
            st.warning(f"**{plain(item.name)}** looks like settings for a table, but no table named like it is loaded.")
        continue
    if item.kind == "series":
        if item.name not in used_sidecars:
            st.warning(f"**{plain(item.name)}** holds runs' series, but the export named like it is not loaded.")
        continue
    if item.kind == "error":
        st.error(f"**{plain(item.name)}** was not loaded — {plain(item.error)}", icon=":material/error:")
        continue
    if item.kind == "foreign":
        assert item.raw is not None
        if item.name in joins and companion_joined(item.name, item.key, joins[item.name]):
            continue  # its cells are the batch sizes of another table's rows, not values
        rows, error, notes = import_step(item.name, item.key, item.raw, paired.get(item.name))
        if error == NO_DEVICE:  # the one action such a file needs: the Device box above asks for it
            st.info(f"**{plain(item.name)}** names no device: type it in *Device for every row* above (or give a "
                    "column the role 'device'), and its chart follows.", icon=":material/edit:")  # fmt: skip
            continue
        if error:
            st.error(f"**{plain(item.name)}** could not be mapped — {plain(error)}", icon=":material/error:")
            continue
        rows = join_companions(
            rows, item.name, item.raw, {c: foreign[c] for c, main in joins.items() if main == item.name}
        )
        cols = st.columns([4, 1])
        why = headline_why(rows, item.name)  # Use on Compare cannot pair two devices at the same settings
        cols[0].success(f"**{plain(item.name)}**: {len(rows):,} rows mapped." + (f" Use on Compare: {plain(why)}." if why else ""),
                        icon=":material/check_circle:")  # fmt: skip
        if cols[1].button("Use on Compare", key=f"hist_cmp_{item.key}", help="Open Compare with this file's headline"):
            offer_to_compare(item.name, rows)  # Compare opens with the file's headline rates chosen
            st.session_state["cmp_imported"] = headline(rows, item.name)
            switch_page("pages/compare.py")
        frames.append(rows)
        continue
    frames.append(item.frame)
    label = {"export": "AccelBench export", "store": "results store"}.get(item.kind) or OWN_KINDS[item.kind]
    cols = st.columns([4, 1])
    with_series = f", series of {len(item.series):,}" if item.series else ""
    if item.name in series_files(items):
        with_series = f", series in {series_files(items)[item.name]}"
    cols[0].success(
        f"**{plain(item.name)}**: {len(item.frame):,} runs ({label}{plain(with_series)}).",
        icon=":material/check_circle:",
    )
    if (
        item.kind == "export"
        and not demo
        and cols[1].button(
            "Save to results",
            key=f"hist_import_{item.key}",
            help="Import into the results store so Compare can use these runs",
        )
    ):
        try:
            added, skipped, records = save_export(store(), item, items)
            st.toast(
                f"{item.name}: {added} runs imported"
                + (f" with {records:,} series records" if records else "")
                + (f", {skipped} already there" if skipped else "")
            )
        except CsvError as exc:
            st.error(f"{plain(item.name)}: not imported — {plain(exc)}")

if not frames:
    st.info(
        "Nothing loaded yet. Drop one or more CSV files above, or switch on **Include data/history/** to try the "
        "sample files, or **Include this machine's runs**. AccelBench exports load as they are; for another tool's "
        "table you pick which column is the device, the model and the value.",
        icon=":material/upload_file:",
    )
    preview = sample_preview()
    if preview is not None:
        st.caption("What the page makes of a file — the sample export in data/history, median per workload:")
        show_chart(preview, "hist_chart_preview", "history_sample_preview")
    st.stop()

df = add_views(history_files.combine(frames))  # configuration labels and per-device rates: no pooled bars
st.subheader(f"Explore {len(df):,} rows")
filtered = explore.filters(df)
picked = explore.controls(filtered)
if picked is None:
    st.stop()
metric, how, by = picked
# Only the open tab is computed and drawn (tab state is tracked): a 100,000-row file stays quick to explore.
extra = extra_tabs(filtered, metric)  # scaling, noise, time to accuracy: where imported rows support them
run_series = all_series(items)  # exports that carried their runs' steps, epochs, repeats and telemetry
if run_series:
    extra.append(("Run series", lambda: series_tab(filtered, run_series)))
names = ["Chart", *[n for n, _ in extra], "Over time", "Pivot", "Baseline", "Rows & settings"]
tabs = st.tabs(names, key="hist_tab", on_change="rerun")
views = (
    lambda: explore.chart_tab(filtered, metric, how, by),
    *[v for _, v in extra],
    lambda: explore.time_tab(filtered, metric, how, by),
    lambda: explore.pivot_tab(filtered, metric, how, by),
    lambda: explore.baseline_tab(filtered, metric, how, by),
    lambda: explore.rows_tab(filtered, metric),
)
for tab, view in zip(tabs, views, strict=True):
    if tab.open:
        with tab:
            view()
