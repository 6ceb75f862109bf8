"""The Run page's result card, its charts, and the table of this session's runs."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from engine.charts import run as charts_run
from engine.results.backend_text import FLOOR_NOTE, backend_lines, peak_text
from engine.results.status import RunStatus
from engine.runs import hardware, jobs
from ui.common import MISSING, fmt_num, fmt_seconds, owns_run, page_link, plain, show_chart, store
from ui.run_input import input_section
from ui.run_progress import run_title
from ui.run_telemetry import result_telemetry

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

from ui.status import RESULT_TEXT, SHOW_LOG, WHY


@st.cache_data(ttl="10m", max_entries=2, show_spinner=False)
def _reference_frame() -> pd.DataFrame | None:
    try:
        from engine.reference.data import load_reference

        return load_reference()
    except (ImportError, OSError, ValueError):
        return None


def answer_line(row: dict[str, Any]) -> Any:
    """The answer in one sentence and one number: how many times faster the published hardware is."""
    from engine.compare.answer import answer_for_run, times_range
    from engine.compare.evidence.rates import runs_of

    # your store's runs on other devices (a teammate's pushed T4 run) are the first evidence for those devices
    found = answer_for_run(row, _reference_frame(), store_runs=runs_of(store()))
    if found is None or not found.headline:
        return found
    with st.container(border=True, key="run_answer"):
        left, right = st.columns([4, 1])
        left.markdown(f"**{plain(found.headline)}**")
        left.caption("Compared as rates of work; the grade of each reference and every difference are on Compare.")
        if found.number and found.low is not None and found.high is not None:
            word = {"estimate": "Times faster (estimate)", "scaled": "Times faster (scaled)"}.get(found.basis or "")
            right.metric(
                word or "Times faster", times_range(found.low, found.high), help="one device's rate ÷ this run's rate"
            )
    return found  # the Run card's input box names each device's host cap from it (ui.run_input)


def _log_tail(run_id: str, lines: int = 25) -> str:
    if not owns_run(run_id):  # demo mode: only the session that launched a run reads its log
        return ""
    try:
        text = (Path(jobs.run_dir_of(run_id, store())) / "log.txt").read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def _devices_text(row: dict[str, Any]) -> str:
    used = [d for d in (row.get("devices_used") or "").split(",") if d]
    # "/job:localhost/replica:0/task:0/device:CPU:0" → "CPU:0": the job/replica prefix says nothing here.
    short = [d.rsplit("device:", 1)[-1] for d in used]
    return ", ".join(short) or "—"


def wall_time_s(run_id: str, row: dict[str, Any]) -> float | None:
    """How long a run really ran: its recorded total, else launch → its last progress event (a run that
    was cancelled or killed wrote no total of its own)."""
    if row.get("total_s") is not None:
        return float(row["total_s"])
    events = jobs.progress_of(run_id, store())
    last = max((ev["t"] for ev in events if isinstance(ev.get("t"), (int, float))), default=None)
    try:
        started = datetime.fromisoformat(str(row.get("created_at")).replace("Z", "+00:00")).timestamp()
    except ValueError:
        started = None
    if last is not None and started is not None:
        return max(0.0, last - started)
    return charts_run.summarize_progress(events).elapsed_s or None


def _outcome(run_id: str, row: dict[str, Any]) -> None:
    """Why a run did not finish: a cancel the user asked for is a fact, not an error."""
    status = row.get("status", "?")
    if status == RunStatus.CANCELLED:
        ran = wall_time_s(run_id, row)
        st.info(
            f"**You cancelled this run** after {fmt_seconds(ran)} (wall time, from launch to the cancel)."
            if ran
            else "**You cancelled this run.**",
            icon=":material/cancel:",
        )
        return
    box = st.warning if status == RunStatus.TIMEOUT else st.error
    reason = plain(row.get("error") or "No reason was recorded.")
    box(f"**{WHY.get(status, status)}.** {reason}", icon=":material/error:")
    tail = _log_tail(run_id)
    if tail and status in SHOW_LOG:
        with st.expander("Last lines of the worker log"):
            st.code(tail, language=None)


def result_card(run_id: str, row: dict[str, Any]) -> None:
    """Status, timings, throughput, placement and notes of a finished run."""
    status = row.get("status", "?")
    with st.container(border=True, key="run_result"):
        st.markdown(f"#### Result — {RESULT_TEXT.get(status, status)}")
        st.caption(
            " · ".join(p for p in (f"`{run_id}`", plain(run_title(row)), plain(row.get("device_name") or "")) if p)
        )
        found = None
        if status == RunStatus.OK:
            found = answer_line(row)
        else:
            _outcome(run_id, row)
        if row.get("step_time_ms_median") is None:
            # Nothing was measured (cancelled/failed before timing): a grid of dashes would only add noise.
            cols: tuple[DeltaGenerator, ...] = st.columns(4)  # rows below have other widths
            cols[0].metric("Status", status)
            ran_s = wall_time_s(run_id, row)
            cols[1].metric("Ran for", fmt_seconds(ran_s), help="Wall time, from launch to the end.")
            page_link("pages/history.py", "See all runs in History", ":material/table_chart:")
            return
        _headline_metrics(row)
        _detail_metrics(row)
        input_section(run_id, row, found)  # issue 38: pipeline alone, step alone, training, and the split bar
        _card_footer(run_id, row)


def peak_floor(row: dict[str, Any]) -> bool | None:
    """Whether a CPU run's peak came from a base clock (a floor): its notes say so, or it ran on this
    machine, whose clock basis is known; None for another machine's run that does not say."""
    if row.get("device") != "cpu":
        return False
    if FLOOR_NOTE in (row.get("notes") or ""):
        return True
    cpu = hardware.cpu_info()
    return cpu.peak_is_floor if row.get("device_name") == cpu.name else None


def _ms_text(ms: Any) -> str:
    return fmt_seconds(ms / 1000) if isinstance(ms, (int, float)) else MISSING


def _headline_metrics(row: dict[str, Any]) -> None:
    """First row, in view right after a run: its time per step/repeat, rate of work and totals."""
    p10, p90 = row.get("step_time_ms_p10"), row.get("step_time_ms_p90")
    spread = f"p10–p90 {_ms_text(p10)} – {_ms_text(p90)}" if p10 is not None and p90 is not None else None
    step_word = "step" if row.get("kind") == "train" else "repeat"
    pct, peak_note = peak_text(row.get("gflops"), row.get("peak_gflops"), row.get("device"), peak_floor(row))
    cols = st.columns(4)
    cols[0].metric(
        f"Median time per {step_word}",
        _ms_text(row.get("step_time_ms_median")),
        delta=spread,
        delta_color="off",
        delta_arrow="off",
        help="Steady state: warm-up excluded; the spread is the 10th–90th percentile of the timed repeats/steps."
        + (
            " JAX/PyTorch: from a short fit synced at every step, after the windowed one."
            if row.get("backend") in ("jax", "torch", "keras-torch") and row.get("kind") == "train"
            else ""
        ),
    )
    cols[1].metric(
        "Achieved GFLOP/s",
        fmt_num(row.get("gflops"), 1),
        delta=pct if pct != MISSING else None,
        delta_color="off",
        delta_arrow="off",
        help=f"{pct}: {peak_note}." if peak_note else "No theoretical peak is known for this device.",
    )
    if row.get("kind") == "matmul":
        cols[2].metric("Peak host memory", fmt_num(row.get("peak_host_memory_mb"), 0, "MB"))
    else:
        cols[2].metric(
            "Examples/s",
            fmt_num(row.get("examples_per_sec"), 1),
            help="Steady-state throughput, global batch ÷ median step time.",
        )
    cols[3].metric("Total time", fmt_seconds(row.get("total_s")))


def _detail_metrics(row: dict[str, Any]) -> None:
    cols = iter(st.columns(4))  # filled left to right, so no gap where a metric does not apply
    next(cols).metric(
        "Time to first step",
        fmt_seconds(row.get("time_to_first_step_s")),
        help="Tracing + compiling + the first execution. Shown apart: it is not in the median.",
    )
    if row.get("kind") == "train":
        per = row.get("per_replica_batch_size")
        next(cols).metric(
            "Replicas",
            fmt_num(row.get("replicas"), 0),
            delta=f"{per} per replica" if per else None,
            delta_color="off",
            delta_arrow="off",
        )
        next(cols).metric("First epoch", fmt_seconds(row.get("first_epoch_s")))
    elif row.get("kind") != "matmul":
        next(cols).metric("Peak host memory", fmt_num(row.get("peak_host_memory_mb"), 0, "MB"))
    next(cols).metric(
        "Cost",
        f"${row['cost_usd']:.4f}" if row.get("cost_usd") is not None else MISSING,
        help="Price per hour × run time, when a price was given.",
    )
    pct, peak_note = peak_text(row.get("gflops"), row.get("peak_gflops"), row.get("device"), peak_floor(row))
    devices = _devices_text(row).replace("`", "'")  # a code span shows anything literally but a backtick
    ran_on = f"**Devices used** (where the ops actually ran): `{devices}`"
    st.markdown(ran_on + (f" · {pct}: {peak_note}." if peak_note and row.get("gflops") else ""))
    st.caption("  \n".join(backend_lines(row, peak_floor(row))))


def _card_footer(run_id: str, row: dict[str, Any]) -> None:
    if row.get("kind") == "train" and row.get("status") == RunStatus.OK:
        cols = st.columns(3)
        cols[0].metric("Final loss", fmt_num(row.get("final_loss"), 4))
        cols[1].metric("Final accuracy", fmt_num(row.get("final_accuracy"), 4))
        cols[2].metric("Validation accuracy", fmt_num(row.get("val_accuracy"), 4))
    if row.get("notes"):
        st.info(f"**Note:** {plain(row['notes'])}", icon=":material/info:")
    page_link("pages/compare.py", "Compare this run with others", ":material/bar_chart:", {"run": run_id})


def result_charts(run_id: str, row: dict[str, Any]) -> None:
    """Per-repeat/step times, training curves, and the run next to the seed articles."""
    db = store()
    if row.get("kind") == "train":
        epochs = db.get_series(run_id, "epoch")
        steps = db.get_series(run_id, "step")
        if epochs:
            show_chart(charts_run.epoch_figure(epochs), "run_epoch_chart", f"{run_id}_epochs")
        if steps:
            # JAX/PyTorch store synced windows (window time ÷ its steps), never dispatch times: labelled so
            x_title, title = charts_run.step_chart_titles(any(s.get("window_steps") for s in steps))
            fig = charts_run.time_series_figure(
                [int(s.get("global_step", i + 1)) for i, s in enumerate(steps)],
                [float(s["step_time_ms"]) for s in steps],
                x_title,
                title,
            )
            show_chart(fig, "run_step_chart", f"{run_id}_step_time")
            if x_title != "Global step":
                st.caption(
                    f"{row.get('backend')} dispatches steps asynchronously, so a step is timed only at a device "
                    "sync: each point is a window of steps, its time ÷ its steps. The first point includes tracing "
                    "and compiling; the card's median comes from a short fit synced at every step."
                )
        result_telemetry(run_id, row)  # issue 12: telemetry under the step-time chart
        return
    reference_chart(run_id, row)
    reps = db.get_series(run_id, "repeat")
    if reps:
        fig = charts_run.time_series_figure(
            [int(r["repeat"]) for r in reps],
            [float(r["time_ms"]) for r in reps],
            "Timed repeat",
            "Time per repeat (warm-up excluded)",
        )
        show_chart(fig, "run_repeat_chart", f"{run_id}_repeat_time")
    result_telemetry(run_id, row)


def reference_chart(run_id: str, row: dict[str, Any]) -> None:
    """The run's GFLOP/s next to the seed articles' (derived from their published time and shape)."""
    from engine.compare.answer import auto_references
    from engine.compare.facts.likeforlike import rate_of_run

    op: str = row.get("kind") or ""
    run = rate_of_run(row) if row.get("status") == RunStatus.OK else None
    if run is None:
        return  # "this run vs the articles" with no run in it says nothing; the References page has the rest
    refs = auto_references(run, _reference_frame())
    if not refs:
        st.caption(f"No published {op} figures are available to compare with.")
        return
    label = f"This run ({(row.get('device') or '').upper()}, {row.get('dtype')})"
    show_chart(charts_run.rate_figure(run, refs, label), "run_reference_chart", f"{run_id}_vs_articles")
    notes = [
        "The articles published times of their own shapes; their GFLOP/s is that shape's FLOPs ÷ the time "
        "(hatched: derived, not measured). Rates of different shapes still differ in efficiency — pick an "
        "article preset to run the same shape."
    ]
    if op == "conv2d":
        notes.append("The article did not state the images' channel count; the preset assumes 3 (RGB).")
    notes += [f"{r.label}: {r.doubt_reason}." for r in refs if r.doubtful and r.doubt_reason]
    st.caption("\n".join(f"- {n}" for n in notes))
