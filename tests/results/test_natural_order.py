"""Labels that hold sizes or numbers are listed by magnitude on History's chart and table ('32KiB' before '1MiB'
before '16GiB'), not as text ('128KiB' before '16GiB' before '1MiB')."""

from __future__ import annotations

from engine.charts.history import history_bars
from engine.imports.importer import apply_import, read_raw
from engine.imports.view.default_view import add_views, default_metric
from engine.results import history
from engine.results.history import metric_columns
from engine.results.quantities import natural_key

# An all-reduce size sweep as all_reduce_bench writes it (each size 4× the last), spanning KiB, MiB and GiB.
SWEEP = """# all-reduce on 8x H100

| payload |    busbw   |    algbw   |
| ------: | ---------: | ---------: |
|   32KiB |   1.44GBps |   0.82GBps |
|  128KiB |   5.73GBps |   3.27GBps |
|  512KiB |  11.74GBps |   6.71GBps |
|    2MiB |  64.53GBps |  36.87GBps |
|    8MiB | 120.20GBps |  68.69GBps |
|   32MiB | 219.90GBps | 125.70GBps |
|  128MiB | 401.90GBps | 229.70GBps |
|  512MiB | 436.10GBps | 249.20GBps |
|    2GiB | 469.20GBps | 268.10GBps |
|    8GiB | 480.10GBps | 274.30GBps |
"""
READING_ORDER = ["32KiB", "128KiB", "512KiB", "2MiB", "8MiB", "32MiB", "128MiB", "512MiB", "2GiB", "8GiB"]


def test_sizes_and_counts_sort_by_magnitude_and_text_case_blind():
    labels = ["payload 16GiB", "payload 1MiB", "payload 128KiB", "Batch 64", "batch 8", "8 heads", "250 ms", "2 s"]
    assert sorted(labels, key=natural_key) == [
        "250 ms", "2 s", "8 heads", "batch 8", "Batch 64", "payload 128KiB", "payload 1MiB", "payload 16GiB",
    ]  # fmt: skip
    assert natural_key("1.5e3 B") > natural_key("1KiB")  # 1,500 bytes > 1,024 bytes


def test_history_lists_a_size_sweep_smallest_first_on_its_chart_and_table():
    raw = read_raw(SWEEP.encode(), "all-reduce-8xH100.md")
    view = add_views(apply_import(raw.frame, raw.guess, "all-reduce-8xH100.md", None)[0])
    metric = default_metric(view, metric_columns(view))
    by = [c for c in ("configuration", "workload") if c in view.columns]
    table = history.aggregate(view, by, metric)
    sizes = [next(s for s in READING_ORDER if f" {s} " in f" {g} ".replace("·", " ")) for g in table["group"]]
    assert sizes == READING_ORDER, table["group"].tolist()
    figure = history_bars(table, metric, by[0], by[1] if len(by) > 1 else None, "median")
    assert list(figure.layout.yaxis.categoryarray) == table["group"].tolist()
