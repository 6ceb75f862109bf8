"""The "Which device?" section of Compare: for the first chosen training run, every GPU and TPU for its workload in one
sorted chart and table — rate of one device (measured, published, or an estimate with its range), times faster
than the run, time for the user's own epochs, and USD per million examples at the price used (the user's
overrides the price table's). Layout only; the table comes from engine.compare.which, the same as
`python -m engine compare --run ID --device all`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from engine.catalog import backends, hardware_table, presets
from engine.catalog import prices as price_table
from engine.charts.which import which_chart
from engine.compare import which as wd
from engine.compare.facts import likeforlike as lfl
from engine.runs import hardware
from ui.common import edit_table, plain, show_chart, show_table, store
from ui.launch_preset import launch

EMPTY = (
    "Which device? needs a training run: pick one under *Runs* above (a matmul or conv2d microbenchmark measures "
    "GFLOP/s, not examples a device would train)."
)
NO_TRAINING_RUN = (
    "No training run in your results yet. The *Quick training check* trains a small text classifier for about 20 "
    "seconds on this machine; this section then ranks every GPU and TPU for it."
)


def _way_on(store_runs: list[dict] | None) -> None:
    """The empty state's way on: pick a training run there is, or start the shortest one (a preset)."""
    st.caption(EMPTY)
    if first_training_run(list(store_runs or [])) is not None:
        return  # there is one to pick above
    st.caption(NO_TRAINING_RUN)
    db = store()
    error = st.session_state.get("cmp_which_error")
    if st.button("Start the quick training check", key="cmp_which_quick_train", icon=":material/play_arrow:",
                 disabled=db.read_only):  # fmt: skip
        device = "gpu" if hardware.detect_accelerators().gpus else "cpu"
        launch(presets.QUICK_TRAIN, device, backends.DEFAULT_BACKEND, error_key="cmp_which_error")
        error = st.session_state.get("cmp_which_error")
    if error:
        st.error(f"Not started: {error[1]}", icon=":material/block:")


def first_training_run(runs: list[dict]) -> dict | None:
    """The first chosen run whose rate is a training rate (examples/s)."""
    for run in runs:
        rate = lfl.rate_of_run(run)
        if rate is not None and rate.task == "training":
            return run
    return None


def _work_inputs(run: dict) -> wd.Work:
    """Examples per epoch and epochs, starting from the run's own (reset when another run is chosen)."""
    own = wd.work_of(run)
    if st.session_state.get("cmp_which_run") != run["run_id"]:  # another run: its own work, a fresh price list
        st.session_state["cmp_which_run"] = run["run_id"]
        st.session_state.pop("cmp_which_prices", None)
        st.session_state["cmp_which_examples"] = int(own.examples_per_epoch or 0)
        st.session_state["cmp_which_epochs"] = int(own.epochs or 1)
    left, right, _ = st.columns([1, 1, 2])
    examples = left.number_input(
        "Examples per epoch",
        min_value=0,
        step=1000,
        key="cmp_which_examples",
        help="Your dataset's training examples per epoch; it starts at this run's own (steps per epoch × global "
        "batch). 0: not known — times are then left out.",
    )
    epochs = right.number_input("Epochs", min_value=1, step=1, key="cmp_which_epochs")
    return wd.Work(float(examples) if examples else None, float(epochs))


def _user_prices(keys: list[str]) -> dict[str, float]:
    """The user's USD per hour for one device, per device (blank: the price table's); the rows keep the hardware
    table's order, so an edit stays with its device while the table above re-sorts."""
    order = {d.key: i for i, d in enumerate(hardware_table.DEVICES)}
    keys = sorted(keys, key=lambda k: order.get(k, len(order)))
    with st.expander("Your prices (USD per hour for one device)"):
        st.caption("Blank uses the price table's on-demand price; the table says whose price each row used.")
        table = [price_table.price_for_device(k) for k in keys]
        frame = pd.DataFrame(
            {
                "device": [hardware_table.BY_KEY[k].short if k in hardware_table.BY_KEY else k for k in keys],
                "table": [p.usd_per_hour if p else None for p in table],
                "usd_per_hour": [None] * len(keys),
            }
        )
        edited = edit_table(
            frame,
            key="cmp_which_prices",
            hide_index=True,
            disabled=["device", "table"],
            column_config={
                "device": st.column_config.TextColumn("Device", width="small"),
                "table": st.column_config.NumberColumn("Price table (USD/h)", format="$%.3g"),
                "usd_per_hour": st.column_config.NumberColumn("Your price (USD/h)", min_value=0.0, format="$%.2f"),
            },
        )
    return {k: float(p) for k, p in zip(keys, edited["usd_per_hour"], strict=True) if pd.notna(p) and p}


def _table(
    run: dict, ref: pd.DataFrame | None, prices: dict[str, float], work: wd.Work, store_runs: list[dict] | None
) -> wd.WhichDevice | None:
    """engine.compare.which for this run, once per (run, prices, epochs, store, reference table): estimating every
    device takes up to a second, and every widget on the page reruns it."""
    store_ids = tuple(str(r.get("run_id")) for r in store_runs or [])
    size = 0 if ref is None else len(ref)
    return _cached(run["run_id"], tuple(sorted(prices.items())), work, store_ids, size, run, ref, store_runs)


@st.cache_data(max_entries=32, show_spinner=False)
def _cached(
    run_id: str, prices: tuple, work: wd.Work, store_ids: tuple, ref_rows: int, _run: dict, _ref: Any, _store: Any
) -> wd.WhichDevice | None:
    return wd.which_device(_run, _ref, prices=dict(prices), work=work, store_runs=_store)


def table_frame(w: wd.WhichDevice) -> pd.DataFrame:
    """The table as shown: units in the headers, bounds and ranges in the text, basis named on every row; how
    each figure was found and the full price text are listed under it (`how_lines`), so the table fits 1366 px."""
    mine = w.baseline_rate
    recs: list[dict[str, Any]] = [
        {
            "Device": r.device,
            "Basis": " · ".join(x for x in (wd.basis_text(r), _scale_cell(r)) if x),
            "Precision · stack": r.setting,
            "Examples/s (one device)": wd.rate_text(r),
            "× faster": wd.speedup_text(r),
            "Time for your epochs": wd.epoch_text(r),
            "USD / M examples": r.usd_per_million_examples,
            "USD/h": _price_cell(r),
        }
        for r in w.rows
    ]
    recs.append(
        {
            "Device": "your run",
            "Basis": "measured here",
            "Precision · stack": w.baseline_setting,
            "Examples/s (one device)": f"{mine:,.0f}" if mine >= 100 else f"{mine:,.3g}",
            "× faster": "1×",
            "Time for your epochs": wd.duration_text(w.baseline_epoch_time_s),
            "USD / M examples": None,
            "USD/h": "",
        }
    )
    return pd.DataFrame(recs)


def _scale_cell(r: wd.DeviceRow) -> str:
    """'anchor' (a measured row the others are scaled from), 'H100 × 0.584', or '' (its own figure's scale)."""
    if r.ratio is None:
        return ""
    return "anchor" if r.anchor is None else wd.scale_text(r).split(" (")[0].removeprefix("= ")


def beside_lines(w: wd.WhichDevice) -> list[str]:
    """Figures listed beside the ranking (another stack's scale or another precision), a flagged source said so."""
    out = []
    for r in w.beside:
        flag = f" **Flagged:** {plain(r.flag)}." if r.flag else ""
        out.append(
            f"**{plain(r.device)}** {plain(wd.rate_text(r))} {plain(w.unit)} per {r.per}, {plain(r.setting)} — "
            f"{plain(r.beside_why)}.{flag}" + (f" *Input:* {plain(r.fed)}." if r.fed else "")
        )
    return out


def _price_cell(r: wd.DeviceRow) -> str:
    """One device's price per hour as the narrow column shows it: the price table's bare, yours marked."""
    if not r.price_whose or r.usd_per_hour is None:
        return "none"
    return f"${r.usd_per_hour:.3g}" + (" (yours)" if r.price_whose == "yours" else "")


def cases_note(w: wd.WhichDevice) -> str:
    """The estimates grouped by their case, each with its checked error (engine.compare.estimate.error_case): never one
    figure for all ("" without estimates)."""
    cases: dict[str, list[str]] = {}
    for r in w.rows:
        if r.is_estimate and r.error_case:
            cases.setdefault(r.error_case, []).append(plain(r.device))
    if not cases:
        return ""
    each = "; ".join(f"{', '.join(devices)}: {plain(case)}" for case, devices in cases.items())
    return f"Estimates are not measurements: hatched bars, with their range. How far off they may be — {each}."


def how_lines(w: wd.WhichDevice) -> list[str]:
    """One line per device: its basis, how the figure was found, and the price used with its source."""
    return [
        f"**{plain(r.device)}** ({plain(wd.basis_text(r))}; {plain(wd.scale_text(r))}): {plain(r.how)}. "
        + (f"{plain(r.precision_note[:1].upper() + r.precision_note[1:])}. " if r.precision_note else "")
        + f"Price: {plain(r.price)}" + (f", rented as {r.devices_per_rental:g} chips" if r.devices_per_rental > 1 else "")
        + "."
        for r in w.rows
    ]  # fmt: skip


def which_section(
    runs: list[dict], ref: pd.DataFrame | None, store_runs: list[dict] | None = None
) -> wd.WhichDevice | None:
    """The section for the first chosen training run (`store_runs`: the store's runs, first evidence for a
    device); None, with one line saying what to pick, when no chosen run is a training run."""
    with st.container(key="cmp_which"):
        return _section(runs, ref, store_runs)


def _section(runs: list[dict], ref: pd.DataFrame | None, store_runs: list[dict] | None) -> wd.WhichDevice | None:
    st.subheader("Which device?", anchor="which-device")
    run = first_training_run(runs)
    if run is None:
        _way_on(store_runs)
        return None
    work = _work_inputs(run)
    w = _table(run, ref, {}, work, store_runs)
    if w is None:
        st.caption(EMPTY)
        return None
    chosen = _user_prices([r.hardware_key for r in w.rows])
    if chosen:
        w = _table(run, ref, chosen, work, store_runs) or w
    st.caption(
        f"Every GPU and TPU for **{plain(w.workload)}** as in run `{plain(w.run_id)}`, one device each, fastest "
        f"first; one device is one GPU or one TPU chip. Time for your epochs: "
        f"{plain(w.work.text) or 'give examples per epoch above'}. Estimates are lighter and hatched, with their "
        "range; ≤ marks a ceiling."
    )
    st.caption(plain(w.scale_note))
    frame = wd.frame(w)
    show_chart(
        which_chart(frame, w.baseline_label, w.baseline_rate, w.unit, w.workload), "cmp_which_chart", "which_device"
    )
    show_table(
        table_frame(w),
        hide_index=True,
        key="cmp_which_table",
        height="content",  # every device, no scrolling inside the table
        column_config={
            "Basis": st.column_config.TextColumn(
                help="measured, scaled or estimate, and where it sits on the answer's one scale: 'anchor' is a measured "
                "row the others start from; 'H100 × 0.584' is that row × a ratio that one source measured on one "
                "stack, or the step model's (named under 'How each figure was found')"
            ),
            "Examples/s (one device)": st.column_config.TextColumn(
                help="training examples per second of ONE device; ≈ an estimate with its range, ≤ a ceiling"
            ),
            "Precision · stack": st.column_config.TextColumn(
                help="what the figure ran with; a row at another precision or on another stack is not like for "
                "like with your run (a scaled row carries its anchor's stack)"
            ),
            "× faster": st.column_config.TextColumn(help="one device's rate ÷ your run's rate"),
            # short headers so the table fits 1366 px beside the scale in the Basis cell
            "Time for your epochs": st.column_config.TextColumn(
                "Your epochs", help=f"time for {w.work.text or 'your epochs (unknown)'} on one device"
            ),
            "USD / M examples": st.column_config.NumberColumn(
                "USD/M ex", format="$%.3g", help="USD per million examples: one device's price per hour ÷ examples "
                "per hour × 1,000,000"
            ),
            "USD/h": st.column_config.TextColumn(
                help="per GPU-hour or TPU chip-hour: yours where you gave one, else the price table's (sources below)"
            ),
        },
    )
    with st.expander("How each figure was found, and whose price"):
        st.markdown("\n".join(f"- {line}" for line in how_lines(w)))
    if w.beside:
        flagged = sum(bool(r.flag) for r in w.beside)
        title = f"Figures beside the ranking: {len(w.beside)} on another stack's scale or at another precision"
        with st.expander(title + (f" ({flagged} flagged pipeline-bound)" if flagged else "")):
            st.markdown("\n".join(f"- {line}" for line in beside_lines(w)))
    from ui.compare_input import input_section  # issue 38: each device against its host's input pipeline

    input_section(runs, w)
    if note := cases_note(w):
        st.caption(note)
    if no_price := [r.device for r in w.rows if not r.price_whose]:
        st.caption(f"No price in the price table for {', '.join(no_price)}: give yours under *Your prices*.")
    for why in w.left_out:
        st.caption(f"Left out: {plain(why)}.")
    return w
