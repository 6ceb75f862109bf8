"""What the Run page draws: a live-progress summary of worker events and Plotly figures. No Streamlit.

The worker's events (engine.runs.progress) are turned into one `ProgressView` — phase, done/total,
current rate, ETA, the per-repeat or per-step times — so the page only lays it out and the
arithmetic is unit-tested. The reference chart puts a run next to the seed articles' published
op times; a row's device colour comes from the reference data's own `device_type`, which is how
article 000's "TPU runtime that ran on the CPU" stays a CPU bar.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from engine.charts.base import DEVICE_COLOURS, DEVICE_NAMES
from engine.spec.micro_presets import SHAPE_FIELDS

DEVICE_COLORS = DEVICE_COLOURS
RUN_COLOR = DEVICE_COLOURS["local"]
# Above this max/min ratio a linear axis hides the small bars, so the axis goes logarithmic.
LOG_AXIS_RATIO = 20.0
_RECENT = 5  # the rate and ETA use the median of the last few repeats/steps, not one noisy sample

PHASE_TEXT = {
    "queued": "Waiting for the worker to start TensorFlow",
    "preparing": "Preparing tensors on the device",
    "warmup": "Warm-up: tracing, compiling and first runs (not timed)",
    "timing": "Timing",
    "configuring": "Configuring the devices and the strategy",
    "loading data": "Loading the data",
    "building": "Building the model",
    "compiling": "Compiling the model",
    "training": "Training",
    "validating": "Validating",
    "measured": "Measured; saving the result",
    "done": "Finished",
}
VALUE_PREFIX = {"approx": "≈", "upper_bound": "≤", "lower_bound": "≥"}


@dataclass
class ProgressView:
    """The state of a live run, from its progress events.

    Attributes:
      phase: the latest phase, in words.
      done, total: repeats (micro) or global steps (training) finished / planned (total None until known).
      rate, rate_unit: current GFLOP/s (micro) or examples/s (training), median of the last few.
      eta_s: seconds left at the recent pace (None until a timed repeat/step exists).
      elapsed_s: since the first event.
      x, time_ms: repeat or global-step numbers and their times, for the live chart.
      x_title: "Repeat" or "Step".
      epoch: the latest epoch record (training), else None.
    """

    phase: str = PHASE_TEXT["queued"]
    done: int = 0
    total: int | None = None
    rate: float | None = None
    rate_unit: str = ""
    eta_s: float | None = None
    elapsed_s: float = 0.0
    x: list[int] = field(default_factory=list)
    time_ms: list[float] = field(default_factory=list)
    x_title: str = "Repeat"
    epoch: dict[str, Any] | None = None

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0


def _recent_median(values: list[float]) -> float | None:
    tail = [v for v in values[-_RECENT:] if v is not None and math.isfinite(v)]
    return statistics.median(tail) if tail else None


def summarize_progress(events: Sequence[Mapping[str, Any]]) -> ProgressView:
    """Fold a run's events (oldest first) into what the live panel shows."""
    view = ProgressView()
    if not events:
        return view
    rates: list[float] = []
    for ev in events:
        kind = ev.get("event")
        if kind == "phase":
            name = str(ev.get("name", ""))
            view.phase = PHASE_TEXT.get(name, name.replace("_", " ").capitalize())
            if name == "timing" and ev.get("repeats"):
                view.total = int(ev["repeats"])
            if name == "training" and ev.get("epochs") and ev.get("steps_per_epoch"):
                view.total = int(ev["epochs"]) * int(ev["steps_per_epoch"])
        elif kind == "repeat":
            view.x_title, view.rate_unit = "Repeat", "GFLOP/s"
            view.done, view.total = int(ev["repeat"]), int(ev["total"])
            view.x.append(view.done)
            view.time_ms.append(float(ev["time_ms"]))
            rates.append(float(ev.get("gflops") or math.nan))
        elif kind == "step":
            view.x_title, view.rate_unit = "Step", "examples/s"
            view.done = int(ev["global_step"])
            view.total = int(ev["total_steps"]) if ev.get("total_steps") else view.total
            view.x.append(view.done)
            view.time_ms.append(float(ev["step_time_ms"]))
            rates.append(float(ev.get("examples_per_sec") or math.nan))
        elif kind == "epoch":
            view.epoch = dict(ev)
    view.rate = _recent_median(rates)
    pace_ms = _recent_median(view.time_ms)
    if pace_ms is not None and view.total:
        view.eta_s = max(0, view.total - view.done) * pace_ms / 1000.0
    times = [ev["t"] for ev in events if isinstance(ev.get("t"), (int, float))]
    view.elapsed_s = (max(times) - min(times)) if times else 0.0
    return view


def _wide(values: list[float]) -> bool:
    positive = [v for v in values if v and v > 0]
    return len(positive) > 1 and max(positive) / min(positive) > LOG_AXIS_RATIO


def _layout(fig: go.Figure, title: str, height: int = 320) -> go.Figure:
    fig.update_layout(title=title, height=height, margin=dict(l=10, r=10, t=50, b=10), hovermode="closest")
    return fig


def time_series_figure(x: list[int], time_ms: list[float], x_title: str, title: str) -> go.Figure:
    """Per-repeat or per-step time (ms) with its median as a dotted line."""
    fig = go.Figure(go.Scatter(x=x, y=time_ms, mode="lines+markers", name="time", marker=dict(size=5)))
    if time_ms:
        med = statistics.median(time_ms)
        # A trace, not add_hline: hline annotations are placed in log10 units on a log axis and blow up its range.
        # Mid-grey reads on both the light and the dark theme.
        fig.add_trace(
            go.Scatter(
                x=[min(x), max(x)],
                y=[med, med],
                mode="lines+text",
                line=dict(dash="dot", color="#8c8c8c"),
                text=[f"median {med:,.2f} ms", ""],
                textposition="top right",
                textfont=dict(color="#8c8c8c"),
                name="median",
                hoverinfo="skip",
            )
        )
    fig.update_xaxes(title=x_title)
    # The first step carries tracing/compile; a log axis keeps the steady steps readable beside it.
    if _wide(time_ms):
        fig.update_yaxes(title="Time (ms, log scale)", type="log", dtick=1)  # decades only: 2/5 minor labels crowd it
    else:
        fig.update_yaxes(title="Time (ms)", type="linear")
    fig.update_layout(showlegend=False)
    return _layout(fig, title)


def epoch_figure(epochs: list[dict[str, Any]]) -> go.Figure:
    """Loss and accuracy per epoch (training and validation), side by side."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, subplot_titles=("Loss", "Accuracy"))
    xs = [int(e.get("epoch", i + 1)) for i, e in enumerate(epochs)]
    for col, key, dash in (
        (1, "loss", "solid"),
        (1, "val_loss", "dash"),
        (2, "accuracy", "solid"),
        (2, "val_accuracy", "dash"),
    ):
        ys = [e.get(key) for e in epochs]
        if any(y is not None for y in ys):
            name = ("validation " if key.startswith("val_") else "training ") + key.removeprefix("val_")
            fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", name=name, line=dict(dash=dash)), row=1, col=col)
    fig.update_xaxes(title="Epoch", dtick=1)
    fig.update_yaxes(title="Loss (cross-entropy)", row=1, col=1)
    fig.update_yaxes(title="Accuracy (fraction)", row=1, col=2)
    return _layout(fig, "Loss and accuracy per epoch", height=340)


# --- the run next to the seed articles -----------------------------------------------------------


def shape_of(row: dict[str, Any], spec: dict[str, Any] | None) -> dict[str, int]:
    """The run's op shape fields, from its spec.json when known, else parsed from the stored `shape` text."""
    bench = row.get("kind")
    if bench not in SHAPE_FIELDS:
        return {}
    if spec and all(f in spec for f in SHAPE_FIELDS[bench]):
        return {f: int(spec[f]) for f in SHAPE_FIELDS[bench]}
    nums = [int(n) for n in re.findall(r"\d+", row.get("shape") or "")]
    if bench == "matmul" and len(nums) == 4:  # "(m x k)@(k x n)"
        return {"m": nums[0], "k": nums[1], "n": nums[3]}
    if bench == "conv2d" and len(nums) == 8:  # "BxHxWxC * kxkxCxF"
        b, h, w, c, ks = nums[:5]
        return {"batch_size": b, "height": h, "width": w, "channels": c, "kernel_size": ks, "filters": nums[7]}
    return {}


def reference_op_rows(ref: pd.DataFrame, op: str) -> pd.DataFrame:
    """Published op times (seconds) for `op` ("matmul"/"conv2d"), fastest first."""
    if ref is None or ref.empty:
        return pd.DataFrame()
    rows = ref[(ref["model"] == op) & (ref["metric"] == "op_time_s")]
    return rows.sort_values("value").reset_index(drop=True)


def fmt_time_s(seconds: float, prefix: str = "") -> str:
    """3 significant digits, in ms below a second: '3.54 ms', '2.44 s'."""
    if seconds < 1:
        return f"{prefix}{seconds * 1000:.3g} ms"
    return f"{prefix}{seconds:.3g} s"


def reference_figure(
    op: str,
    refs: pd.DataFrame,
    run_time_s: float | None,
    run_label: str,
    scaled_time_s: float | None = None,
    ref_shape_text: str = "",
) -> go.Figure:
    """Horizontal bars of op time (s): this run (and its FLOP-scaled estimate) on top, then the published rows.

    A reference bar's colour and legend group come from the row's own device_type, never from its
    label — so a row the data marks as a CPU (article 000's 'TPU' runtime) is drawn as a CPU.
    Approximate and bound values are drawn paler, with ≈/≤/≥ in their label.
    """
    # (label, seconds, legend group, colour, text, hover, opacity), top to bottom
    bars: list[tuple[str, float, str, str, str, str, float]] = []
    if run_time_s:
        bars.append(
            (run_label, run_time_s, "This run", RUN_COLOR, fmt_time_s(run_time_s), "median over the timed repeats", 1.0)
        )
    if scaled_time_s:
        why = "this run's time × (article's FLOPs ÷ this run's FLOPs): an estimate, not a measurement"
        bars.append(
            (
                "This run, scaled to the article's shape",
                scaled_time_s,
                "This run (estimate)",
                RUN_COLOR,
                fmt_time_s(scaled_time_s, "≈"),
                why,
                1.0,
            )
        )
    dup = refs["hardware"].duplicated(keep=False) if not refs.empty else pd.Series(dtype=bool)
    for i, r in refs.iterrows():
        dev = str(r["device_type"])
        kind = str(r.get("value_kind", ""))
        prefix = VALUE_PREFIX.get(kind, "")
        label = f"{r['hardware']} ({r['source_id']})" if dup.get(i, False) else str(r["hardware"])
        doubt = f"<br>Caveat: {r['doubt_reason']}" if r.get("doubtful") and r.get("doubt_reason") else ""
        hover = f"{r['hardware']}<br>{r['source_id']}: {r['source_title']}<br>{prefix}{r['value']:g} s{doubt}"
        group = f"{DEVICE_NAMES.get(dev, dev)} (published)"
        opacity = 1.0 if kind in ("exact", "") else 0.6
        text = fmt_time_s(float(r["value"]), prefix)
        bars.append((label, float(r["value"]), group, DEVICE_COLORS.get(dev, "#999"), text, hover, opacity))
    fig = go.Figure()
    for group in dict.fromkeys(b[2] for b in bars):
        sel = [b for b in bars if b[2] == group]
        fig.add_trace(
            go.Bar(
                y=[b[0] for b in sel],
                x=[b[1] for b in sel],
                orientation="h",
                name=group,
                marker=dict(
                    color=sel[0][3],
                    opacity=[b[6] for b in sel],
                    pattern=dict(shape="/" if "estimate" in group else ""),
                ),
                text=[b[4] for b in sel],
                textposition="outside",
                cliponaxis=False,
                hovertext=[b[5] for b in sel],
                hoverinfo="text",
            )
        )
    values = [b[1] for b in bars]
    log = _wide(values)
    fig.update_xaxes(
        title="Op time (s, log scale) — lower is better" if log else "Op time (s) — lower is better",
        type="log" if log else "linear",
    )
    if log and values:
        # Room on the right for the outside value labels (log ranges are in powers of ten).
        # dtick=1: label whole decades only; Plotly's 2/5 minor labels crowd a short axis.
        fig.update_xaxes(range=[math.log10(min(values)) - 0.3, math.log10(max(values)) + 0.5], dtick=1)
    elif values:
        fig.update_xaxes(range=[0, max(values) * 1.3])
    # Plotly lists horizontal categories bottom-up, so reverse to keep this run on top.
    fig.update_yaxes(categoryorder="array", categoryarray=[b[0] for b in reversed(bars)], automargin=True)
    fig.update_layout(barmode="overlay", legend=dict(traceorder="normal"))
    title = f"{op}: this run vs the seed articles' published times"
    if ref_shape_text:
        title += f"<br><sup>published shape {ref_shape_text}</sup>"
    return _layout(fig, title, height=160 + 40 * max(1, len(bars)))


def peak_text(gflops: float | None, peak_gflops: float | None, device: str | None) -> tuple[str, str]:
    """('54% of peak', a one-line explanation) for the result card; ('—', '') when unknown."""
    if not gflops or not peak_gflops:
        return "—", ""
    pct = 100.0 * gflops / peak_gflops
    note = f"theoretical peak {peak_gflops:,.1f} GFLOP/s"
    if device == "cpu":
        note += (
            " = cores × base clock × FLOPs/cycle; turbo clocks run above the base clock, so more than 100% is possible"
        )
    return f"{pct:.0f}% of peak", note
