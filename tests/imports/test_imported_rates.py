"""Imported rows as rates for Compare: one rate per configuration × metric (the median of its repeats) with
its noise band; lower-is-better metrics inverted so a speedup is always "how many times faster"."""

from __future__ import annotations

import pytest

from engine.compare.answer import compare
from engine.compare.facts.single import one_device
from engine.imports.importer import load_foreign
from engine.imports.view.imported_rates import headline, rates_of_rows, within_noise

REPEATS = (
    "System,ResNet-50 (images/s)\n"
    "8x H100 80GB SXM5 (host-1),21000\n8x H100 80GB SXM5 (host-2),22000\n8x H100 80GB SXM5 (host-3),21500\n"
    "8x A100 80GB SXM4 (host-4),13000\n8x A100 80GB SXM4 (host-5),13400\n"
)
MINUTES = "System,Model,Time to train (min)\n8x H100 SXM5,BERT,6.0\n8x A100 SXM4,BERT,12.0\n8x A100 SXM4,BERT,12.6\n"


def test_repeated_rows_of_one_configuration_become_one_rate_with_its_band():
    rows, _ = load_foreign(REPEATS.encode(), "fleet.csv")
    rates = {r.label: (r, b) for r, b in rates_of_rows(rows, "fleet.csv")}
    h100, band = next(v for k, v in rates.items() if k.startswith("8× H100"))
    assert h100.unit == "examples/s" and h100.value == 21500 and h100.origin == "imported"
    assert (band.low, band.high, band.rows) == (21000, 22000, 3) and band.cv_pct == pytest.approx(2.33, abs=0.01)
    a100, a_band = next(v for k, v in rates.items() if k.startswith("8× A100"))
    answer = compare(a100, [h100])
    assert answer.rows[1].speedup == pytest.approx(21500 / 13200)
    assert not within_noise(h100.value, a100.value, [band, a_band])
    assert within_noise(21400, h100.value, [band])  # 100 apart, inside a 1,000-wide band


def test_a_lower_is_better_metric_compares_as_times_faster():
    rows, _ = load_foreign(MINUTES.encode(), "mlperf.csv")
    rates = {r.label.split(" · ")[0]: r for r, _ in rates_of_rows(rows, "mlperf.csv")}
    h100, a100 = rates["8× H100 SXM5"], rates["8× A100 SXM4"]
    assert "lower is better, inverted" in h100.unit and "1 ÷ it" in h100.how
    answer = compare(a100, [h100])
    assert answer.rows[1].speedup == pytest.approx(12.3 / 6.0)  # baseline minutes ÷ its minutes: > 1 = faster
    assert "faster" in answer.headline


def test_a_stated_one_gpu_row_is_a_single_device_figure_and_compare_opens_on_the_headline():
    """Issue 31 item 5: a row whose count says one GPU is one device on Compare (never "a system of unstated size"),
    and History's "Use on Compare" chooses the file's headline: its rate of work, single-device figures first."""
    text = "name_gpu,num_gpu,resnet50\nA100 80GB SXM4,1.0,800\nA100 80GB SXM4,8.0,6000\nV100 16GB,1.0,400\n"
    rows, _ = load_foreign(text, "vendor-throughput.csv")
    rates = {r.id: r for r, _ in rates_of_rows(rows, "vendor-throughput.csv")}
    ids = headline(rows, "vendor-throughput.csv")
    assert [rates[i].hardware_key for i in ids] == ["a100_80gb", "v100"] and all(rates[i].devices == 1 for i in ids)
    assert all(one_device(rates[i]) is rates[i] for i in ids)  # itself: one device, not a system
    eight = next(r for r in rates.values() if r.devices == 8)
    assert one_device(eight).value == 750  # a stated system: its per-device share
