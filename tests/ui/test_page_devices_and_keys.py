"""Devices under AppTest, and the widget-key prefix of Home, Compare, History and Devices (conftest
`seeded` database)."""

from __future__ import annotations

import pytest
from page_helpers import PAGES, PREFIX, no_exception, page, widget_keys

# --- Devices -------------------------------------------------------------------------------------


def test_devices_shows_the_cpu_and_keeps_gpu_settings_for_the_run_page(db_env):
    at = page("devices").run()
    no_exception(at)
    from engine.runs.hardware import cpu_info

    metrics = {m.label: m for m in at.metric}
    assert (
        metrics["Cores available"].value.isdigit()
        and float(metrics["Peak, float32 (GFLOP/s)"].value.replace(",", "")) > 0
    )
    # a peak from a base clock says it is a floor (a run's share of it can pass 100 % otherwise unexplained)
    assert (metrics["Peak, float32 (GFLOP/s)"].delta == "a floor (base clock)") == cpu_info().peak_is_floor
    assert any("No GPU found" in i.value for i in at.info)
    assert at.toggle(key="dev_memory_growth").disabled  # nothing to act on without a GPU
    at.number_input(key="dev_logical_devices").set_value(2).run()
    no_exception(at)
    assert at.session_state["logical_devices"] == 2
    assert at.session_state["gpu_memory_growth"] is False and at.session_state["gpu_memory_limit_mb"] == 0
    assert any("logical devices: **2**" in m.value for m in at.markdown)


# --- all four --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PAGES))
def test_every_widget_key_carries_the_page_prefix(db_env, name):
    at = page(name)
    if name == "compare":
        at.query_params["run"] = db_env[1]["train"]["run_id"]
    at.run()
    if name == "history":
        at.toggle(key="hist_folder").set_value(True).run()
    no_exception(at)
    keys = widget_keys(at)
    assert keys and all(k.startswith(PREFIX[name]) for k in keys), [k for k in keys if not k.startswith(PREFIX[name])]
