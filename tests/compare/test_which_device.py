"""The "Which device?" table (engine.compare.which): a real tiny_cnn CPU run made by the engine (conftest
`seeded`) and a ResNet-50 CPU run's row against the real reference table — every priced GPU and TPU present,
fastest first, estimates with their range, the user's price over the price table's, the user's epochs timed —
and the chart (estimates lighter and hatched with an error bar, any basis word drawn as it is)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from engine.catalog import hardware_table, prices
from engine.charts.which import which_chart
from engine.compare import which as wd
from engine.reference.units import same_family
from engine.results.schema import SCHEMA_VERSION

# the row a `python -m engine run --model resnet50 --dataset synthetic --batch-size 8 --epochs 2
# --steps-per-epoch 2` stored on this 2-core CPU (2026-11-25)
R50 = {
    "schema_version": SCHEMA_VERSION, "run_id": "20261125-200832-35b812", "created_at": "2026-11-25T20:08:32Z",
    "status": "ok", "source": "local", "kind": "train", "model": "resnet50", "dataset": "synthetic",
    "dtype": "float32", "precision": "float32", "xla": False, "device": "cpu", "backend": "tensorflow",
    "strategy": "default", "replicas": 1, "global_batch_size": 8, "per_replica_batch_size": 8, "epochs": 2,
    "steps_per_epoch": 2, "params": 25636712, "model_source": "zoo", "step_time_ms_median": 2680.9,
    "examples_per_sec": 2.984, "total_s": 43.3, "device_name": "Intel(R) Xeon(R) Processor", "host_cores": 2,
    "tf_version": "2.21.0", "framework_version": "tensorflow 2.21.0",
}  # fmt: skip


def _priced_keys() -> set[str]:
    accel = {d.key for d in hardware_table.DEVICES if d.device_type in ("gpu", "tpu")}
    return {p.hardware_key for p in prices.load_prices() if p.hardware_key in accel}


def _peak_families() -> set[frozenset[str]]:
    return {
        frozenset(same_family(d.key))
        for d in hardware_table.DEVICES
        if d.device_type in ("gpu", "tpu") and d.peak_tflops
    }


@pytest.fixture(scope="module")
def train_run(seeded):
    return seeded[1]["train"]


def test_every_priced_device_fastest_first_with_ranges_and_costs(train_run, ref):
    w = wd.which_device(train_run, ref)
    assert w is not None and w.workload == "tiny_cnn" and w.unit == "examples/s"
    assert w.baseline_rate == pytest.approx(float(train_run["examples_per_sec"]))
    keys = [r.hardware_key for r in w.rows]
    assert len(keys) == len(set(keys))
    families = [frozenset(same_family(k)) for k in keys]
    assert len(families) == len(set(families)), "a chip counted two ways (v2 chips, a v2-8 board) is one row"
    assert set(families) == _peak_families(), "every GPU and TPU with a datasheet peak has a figure or an estimate"
    for key in _priced_keys():  # every priced device, priced from the table and saying so
        row = next(r for r in w.rows if key in same_family(r.hardware_key))
        assert row.price_whose == "price table" and row.usd_per_million_examples and "price table" in row.price
    rates = [r.rate_one_device for r in w.rows]
    assert rates == sorted(rates, reverse=True)
    assert [wd.sort_key(r) for r in w.rows] == sorted(wd.sort_key(r) for r in w.rows)
    for r in w.rows:
        assert r.speedup == pytest.approx(r.rate_one_device / w.baseline_rate)
        if r.is_estimate:  # an estimate always carries its range and says it is one
            assert r.low is not None and r.high is not None and r.low <= r.rate_one_device * 1.0001 <= r.high * 1.0002
            assert wd.basis_text(r).startswith("estimate")
            if r.bound == "at most":  # held at the step floor: a ceiling, marked so
                assert wd.rate_text(r).startswith("≤") and wd.epoch_text(r)[0] in "≥0123456789"
        if r.usd_per_million_examples is not None:
            assert r.usd_per_million_examples == pytest.approx(r.usd_per_hour / 3600 * 1e6 / r.rate_one_device)
    for r in w.rows:
        if not r.price_whose:
            assert r.hardware_key not in _priced_keys() and r.usd_per_million_examples is None


def test_time_for_the_runs_own_epochs_and_per_epoch_when_unknown(train_run, ref):
    w = wd.which_device(train_run, ref)
    examples = float(train_run["steps_per_epoch"]) * float(train_run["global_batch_size"])
    assert w.work == wd.Work(examples, float(train_run["epochs"]))
    assert w.work.text == f"{float(train_run['epochs']):g} epochs of {examples:,.0f} examples"
    for r in w.rows:
        assert r.epoch_time_s == pytest.approx(examples * float(train_run["epochs"]) / r.rate_one_device)
    assert w.baseline_epoch_time_s == pytest.approx(examples * float(train_run["epochs"]) / w.baseline_rate)
    mine = wd.which_device(train_run, ref, work=wd.Work(60_000, 10))  # the user's real dataset and epochs
    h100 = next(r for r in mine.rows if r.hardware_key == "h100")
    assert h100.epoch_time_s == pytest.approx(600_000 / h100.rate_one_device)
    no_epochs = wd.work_of({**train_run, "epochs": None})
    assert no_epochs.text == f"per epoch of {examples:,.0f} examples" and no_epochs.examples == examples
    unknown = wd.which_device({**train_run, "steps_per_epoch": None}, ref)
    assert unknown.work.text == "" and all(r.epoch_time_s is None and wd.epoch_text(r) == "—" for r in unknown.rows)


def test_the_users_price_overrides_the_price_tables(train_run, ref):
    table = wd.which_device(train_run, ref)
    mine = wd.which_device(train_run, ref, prices={"h100": 1.25, "mi300x": 3.0})
    before = next(r for r in table.rows if r.hardware_key == "h100")
    h100 = next(r for r in mine.rows if r.hardware_key == "h100")
    assert before.price_whose == "price table" and before.usd_per_hour == pytest.approx(6.88)
    assert h100.price_whose == "yours" and h100.price.startswith("user: $1.25/h")
    assert h100.usd_per_million_examples == pytest.approx(1.25 / 3600 * 1e6 / h100.rate_one_device)
    assert h100.price_short == "$1.25/h, yours"
    mi = next(r for r in mine.rows if r.hardware_key == "mi300x")  # no table price: only the user's
    assert mi.price_whose == "yours" and mi.usd_per_million_examples is not None
    t4 = next(r for r in mine.rows if r.hardware_key == "t4")
    assert t4.price_whose == "price table"  # the others keep the table's


def test_resnet50_published_and_measured_rows_beside_estimates(ref):
    w = wd.which_device(R50, ref)
    by_key = {r.hardware_key: r for r in w.rows}
    bases = {r.basis for r in w.rows}
    assert "estimate" in bases and bases & {"measured", "published", "scaled"}
    for r in w.rows:
        if r.basis != "estimate":
            assert r.bound in ("exact", "about") or r.basis != "measured"
            assert "estimate" not in wd.basis_text(r)
    assert {"h100", "b200", "tpu_v5e", "mi300x", "l40s", "gh200", "h100_pcie"} <= set(by_key)
    assert all(r.basis != "published" for r in w.rows) and w.beside  # another stack's figure: beside, not ranked
    rates = [r.rate_one_device for r in w.rows]
    assert rates == sorted(rates, reverse=True)
    lines = wd.lines(w)
    assert lines[0].startswith("Which device? resnet50, examples/s per one device, fastest first")
    assert lines[1] == w.scale_note and "One scale" in w.scale_note
    assert len(lines) == 3 + len(w.rows) + len(w.beside) + len(w.left_out)
    js = wd.to_json(w)
    assert [d["hardware_key"] for d in js["devices"]] == [r.hardware_key for r in w.rows]
    assert set(js["devices"][0]) >= {
        "hardware_key", "device", "rate_one_device", "basis", "range", "speedup", "epoch_time_s",
        "usd_per_million_examples", "price", "how",
    }  # fmt: skip


def test_a_microbenchmark_has_no_which_device_table(seeded, ref):
    assert wd.which_device(seeded[1]["matmul"], ref) is None


def test_duration_text_never_uses_e_notation():
    assert [wd.duration_text(s) for s in (0.0084, 0.18, 1.41, 12.3, 300, 9000, 400_000, None)] == [
        "8.4 ms", "180 ms", "1.4 s", "12 s", "5 min", "2.5 h", "4.6 days", "—",
    ]  # fmt: skip


def _row(key: str, rate: float, basis: str, low=None, high=None, bound="exact") -> wd.DeviceRow:
    return wd.DeviceRow(
        key, hardware_table.BY_KEY[key].short, key, rate, basis, bound, low, high, rate / 10, (low or rate) / 10,
        (high or rate) / 10, None, None, None, None, None, "", "", "how",
    )  # fmt: skip


def test_chart_estimates_lighter_and_hatched_with_range_and_unknown_basis_as_it_is():
    rows = [_row("h100", 3000, "measured"), _row("b200", 5000, "estimate", 3000, 6000), _row("h200", 4000, "scaled"),
            _row("a100", 900, "published"), _row("l4", 700, "guessed")]  # fmt: skip
    w = wd.WhichDevice(
        "r", "resnet50", "examples/s", "this CPU", 10.0, wd.Work(None, None), tuple(sorted(rows, key=wd.sort_key))
    )
    frame = wd.frame(w)
    fig = which_chart(frame, w.baseline_label, w.baseline_rate, w.unit)
    by_name = {t.name: t for t in fig.data}
    est = by_name["estimate (lighter, hatched; bar = range)"]
    assert est.marker.pattern.shape == "/" and est.marker.color.endswith(",0.25)")  # lighter fill
    assert list(est.error_x.array) == [1000.0] and list(est.error_x.arrayminus) == [2000.0]
    assert by_name["measured"].marker.pattern.shape == "" and by_name["measured"].marker.color == "#16a34a"
    assert "guessed" in by_name and "scaled (measured × published ratio)" in by_name  # unknown word: as it is
    assert "your run (1×)" in by_name
    order = list(fig.layout.yaxis.categoryarray)
    assert order[-1] == "B200 · estimate" and order[0] == "your run: this CPU"  # fastest at the top
    assert order[::-1][:5] == [f"{r.device} · {r.basis}" for r in w.rows][:5]  # the table's order
    assert "ONE device (examples/s" in fig.layout.xaxis.title.text
    assert fig.layout.xaxis.range[1] >= 6000  # the range's top end and the labels fit
    assert wd.basis_text(w.rows[4]) == "guessed" and w.rows[0].hardware_key == "b200"
    assert not math.isnan(pd.to_numeric(frame["rate"]).sum())
