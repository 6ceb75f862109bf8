"""Issue 43, the last classes of the foreign corpus: the MLPerf submission checker's summary table (CSV, and the same
table as pandas `to_json(orient="index")`), whose CPU-only systems say accelerators_per_node 0 and accelerator N/A —
MLPerf's system description convention makes the host CPU their device — and the EEMBC EnergyRunner's energy-mode log
(MLPerf Tiny), whose score is the energy per inference. Small files written here in each tool's shape (values from the
public files, fewer rows and columns)."""

from __future__ import annotations

import pandas as pd
import pytest

from engine.imports.facts.mlperf_systems import device_of, no_accelerator
from engine.imports.facts.system_names import parse_system
from engine.imports.facts.units import unit_from_header
from engine.imports.importer import apply_import, read_raw
from engine.imports.view.default_view import add_views, default_metric
from engine.results.history import higher_is_better, metric_columns

_COLUMNS = ["SystemName", "Model", "Scenario", "Result", "number_of_nodes", "host_processor_model_name",
            "host_processors_per_node", "accelerator_model_name", "accelerators_per_node", "Units"]  # fmt: skip
_ROWS = [
    ["default", "retinanet", "offline", 0.421941, 1, "AMD EPYC 7763 64-Core Processor", 1, "N/A", 0, "Samples/s"],
    ["gh_action", "mixtral-8x7b", "offline", 0.0148696, 1, "Intel(R) Xeon(R) w7-2495X", 1, "N/A", 0, "Samples/s"],
    ["gh_action", "stable-diffusion-xl", "offline", 0.342746, 1, "Intel(R) Xeon(R) w7-2495X", 1,
     "NVIDIA GeForce RTX 4090", 2, "Samples/s"],
    ["gh_macos x86", "resnet50", "offline", 8.60445, 1, "undefined", 1, "N/A", 0, "Samples/s"],
    ["gh_macos x86", "bert-99", "offline", 4.48923, 1, "undefined", 1, "N/A", 0, "Samples/s"],
]  # fmt: skip
_WHO = {  # model → (device, count) each row must state
    "retinanet": ("EPYC 7763", 1),
    "mixtral-8x7b": ("Xeon w7-2495X", 1),
    "stable-diffusion-xl": ("RTX 4090", 2),
    "resnet50": ("gh_macos x86", 1),  # no accelerator, the host undefined: the system's name names it
    "bert-99": ("gh_macos x86", 1),
}


def _summary_csv() -> str:
    return pd.DataFrame(_ROWS, columns=_COLUMNS).to_csv(index=False)


def _summary_json() -> str:
    frame = pd.DataFrame(_ROWS, columns=_COLUMNS).replace({"N/A": ""})  # the JSON says "" where the CSV says N/A
    return frame.to_json(orient="index")


def _import(text: str, name: str) -> pd.DataFrame:
    raw = read_raw(text.encode(), name)
    return apply_import(raw.frame, raw.guess, name, None)[0]


@pytest.mark.parametrize(("text", "name"), [(_summary_csv(), "summary.csv"), (_summary_json(), "summary.json")])
def test_the_checker_summary_names_the_accelerator_else_the_host_cpu_and_counts_it(text, name):
    frame = _import(text, name)
    stated = {r["model"]: (r["device_label"], int(r["device_count"])) for _, r in frame.iterrows()}
    assert stated == _WHO
    assert "setting.accelerators_per_node" not in frame.columns  # the count, never a setting


def test_the_checker_summary_keeps_each_systems_result_in_its_unit():
    view = add_views(_import(_summary_csv(), "summary.csv"))
    sdxl = view[view["model"] == "stable-diffusion-xl"].iloc[0]
    assert sdxl["Result (Samples/s)"] == pytest.approx(0.342746)  # the system's rate, as the checker lists it
    assert sdxl["Result per device (Samples/s)"] == pytest.approx(0.342746 / 2)


@pytest.mark.parametrize(
    ("desc", "device"),
    [
        ({"accelerator_model_name": "H100", "accelerators_per_node": 8}, ("H100", 8)),
        (
            {
                "accelerator_model_name": "N/A",
                "accelerators_per_node": "0",
                "host_processor_model_name": "EPYC 7763",
                "host_processors_per_node": 2,
            },
            ("EPYC 7763", 2),
        ),  # fmt: skip
        ({"accelerators_per_node": 0}, (None, 1)),  # Fugaku's logs: the system's name names the CPU
    ],
)
def test_one_definition_of_an_mlperf_systems_device(desc, device):
    assert device_of(desc) == device
    assert no_accelerator(desc) == (device[0] != "H100")


_ENERGY_WINDOW = """01709.412 ulp-ml: Energy data for window {w} at time 9.06 for 12.91 sec.:
01709.412 ulp-ml:   Energy       :   664776.710 uJ
01709.412 ulp-ml:   Power        :    51501.140 uW
01709.412 ulp-ml:   Energy/Inf.  :      {e} uJ/inf.
"""
_PERFORMANCE_WINDOW = """01709.424 ulp-ml: Performance results for window {w}:
01709.424 ulp-ml:   # Inferences :         1500
01709.424 ulp-ml:   Runtime      :       12.908 sec.
01709.424 ulp-ml:   Throughput   :      116.207 inf./sec.
01709.424 ulp-ml: Runtime requirements have been met.
"""
_ENERGY_LOG = (
    "".join(_ENERGY_WINDOW.format(w=w, e=e) for w, e in ((2, "443.184"), (4, "443.048"), (6, "443.239")))
    + "01709.424 ulp-ml: Median energy cost is 443.184 uJ/inf.\n"
    + "".join(_PERFORMANCE_WINDOW.format(w=w) for w in (2, 4, 6))
    + "01709.424 ulp-ml: Median throughput is 116.207 inf./sec.\n"
)


def test_an_energy_mode_run_headlines_its_energy_per_inference():
    raw = read_raw(_ENERGY_LOG.encode(), "results.txt")
    raw.guess.constants["device"] = "NUCLEO-L4R5ZI"  # the runner names no board: History asks for it
    view = add_views(apply_import(raw.frame, raw.guess, "results.txt", None)[0])
    metric = default_metric(view, metric_columns(view))
    assert metric == "Energy per inference (uJ)"
    assert higher_is_better(metric) is False  # an energy, at any prefix of J, is lower-is-better like J itself
    assert sorted(view[metric].dropna()) == pytest.approx([443.048, 443.184, 443.239])


def test_an_energy_per_item_unit_puts_the_item_in_the_name():
    assert unit_from_header("Energy/Inf. (uJ/inf.)") == ("Energy per inference", "uJ")
    assert unit_from_header("Energy (uJ)") == ("Energy", "uJ")  # a window's energy: no item
    assert unit_from_header("Bandwidth (GB/s)") == ("Bandwidth", "GB/s")  # a rate is no energy per item


@pytest.mark.parametrize(
    ("brand", "product"),
    [
        ("AMD EPYC 7763 64-Core Processor", "EPYC 7763"),
        ("Intel(R) Xeon(R) w7-2495X", "Xeon w7-2495X"),  # never `W7`, a GPU-style model number
        ("Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", "Xeon Platinum 8380"),
        ("NVIDIA GeForce RTX 4090", "RTX 4090"),  # a GPU's name as before
    ],
)
def test_a_cpu_brand_string_names_its_product(brand, product):
    assert parse_system(brand).device_model == product
