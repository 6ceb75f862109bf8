"""What the Run page draws: a live-progress summary of worker events and Plotly figures. No Streamlit.

The worker's events (engine.runs.progress) are turned into one `ProgressView` — phase, done/total,
current rate, ETA, the per-repeat or per-step times — so the page only lays it out and the
arithmetic is unit-tested. The reference chart puts a run's rate of work next to the seed
articles' (engine.compare.facts.likeforlike); a row's device colour comes from the reference data's own
`device_type`, which is how article 000's "TPU runtime that ran on the CPU" stays a CPU bar.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import plotly.graph_objects as go

from engine.charts.base import (
    DEVICE_COLOURS,
    DEVICE_NAMES,
    NEUTRAL,
    bar_height,
    count_axis,
    finish,
    hatch_legend,
    short_number,
    time_unit,
)
from engine.compare.facts.likeforlike import Rate

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
      synced_windows: the steps are synced windows (JAX, PyTorch): done counts the steps finished at the
        last device sync, time_ms is window time ÷ steps in the window, and the ETA uses that pace.
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
    epoch: Mapping[str, Any] | None = None
    synced_windows: bool = False

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0


def _recent_median(values: list[float]) -> float | None:
    tail = [v for v in values[-_RECENT:] if v is not None and math.isfinite(v)]
    return statistics.median(tail) if tail else None


def _synced_pace_ms(windows: list[tuple[int, float]]) -> float | None:
    """Synced time per step of the last few windows, weighted by their steps; the first window (time to
    first step: tracing and compiling) only while it is the only one."""
    recent = (windows[1:] or windows)[-_RECENT:]
    steps = sum(n for n, _ in recent)
    return sum(n * ms for n, ms in recent) / steps if steps else None


def step_chart_titles(synced_windows: bool) -> tuple[str, str]:
    """(x-axis title, chart title) of a per-step time chart; an asynchronous backend's points are windows."""
    if synced_windows:
        return "Global step (at a device sync)", "Synced step time (window time ÷ steps in the window)"
    return "Global step", "Step time (the first step includes tracing and compiling)"


def summarize_progress(events: Sequence[Mapping[str, Any]]) -> ProgressView:
    """Fold a run's events (oldest first) into what the live panel shows."""
    view = ProgressView()
    if not events:
        return view
    rates: list[float] = []
    windows: list[tuple[int, float]] = []  # (steps, ms per step) of each synced window
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
            if ev.get("window_steps"):
                view.synced_windows = True
                windows.append((int(ev["window_steps"]), view.time_ms[-1]))
        elif kind == "epoch":
            view.epoch = dict(ev)
    view.rate = _recent_median(rates)
    pace_ms = _synced_pace_ms(windows) if view.synced_windows else _recent_median(view.time_ms)
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
    """Per-repeat or per-step time (in ms or s by magnitude) with its median as a dotted line."""
    div, unit = time_unit(time_ms)
    ys = [t / div for t in time_ms]
    fig = go.Figure(
        go.Scatter(
            x=x,
            y=ys,
            mode="lines+markers",
            name="time",
            marker=dict(size=5),
            hovertemplate=f"{x_title} %{{x:,d}}<br>%{{y:,.4g}} {unit}<extra></extra>",
        )
    )
    if ys:
        med = statistics.median(ys)
        # A trace, not add_hline: hline annotations are placed in log10 units on a log axis and blow up its range.
        # Mid-grey reads on both the light and the dark theme.
        fig.add_trace(
            go.Scatter(
                x=[min(x), max(x)],
                y=[med, med],
                mode="lines+text",
                line=dict(dash="dot", color="#8c8c8c"),
                text=[f"median {med:,.3g} {unit}", ""],
                textposition="top right",
                textfont=dict(color="#8c8c8c"),
                name="median",
                hoverinfo="skip",
            )
        )
    fig.update_xaxes(title=x_title, **count_axis(x))
    # The first step carries tracing/compile; a log axis keeps the steady steps readable beside it.
    if _wide(ys):
        fig.update_yaxes(title=f"Time ({unit}, log scale)", type="log", dtick=1)  # decades only
    else:
        fig.update_yaxes(title=f"Time ({unit})", type="linear")
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
    fig.update_xaxes(title="Epoch", **count_axis(xs))
    fig.update_yaxes(title="Loss (cross-entropy)", row=1, col=1)
    fig.update_yaxes(title="Accuracy (fraction)", row=1, col=2)
    return _layout(fig, "Loss and accuracy per epoch", height=340)


# --- the run next to the seed articles -----------------------------------------------------------

BOUND_MARK = {"about": "≈", "at least": "≥", "at most": "≤"}


def _rate_bar(r: Rate, label: str, local: bool) -> dict[str, Any]:
    caveat = f"Caveat: {r.doubt_reason}" if r.doubtful and r.doubt_reason else ""
    return {
        "label": label,
        "value": r.value,
        "key": "local" if local else r.device_type,
        "basis": "local" if local else r.basis,
        "hatched": not local and (r.derivation != "measured" or r.doubtful),
        "text": BOUND_MARK.get(r.bound, "") + short_number(r.value),
        # plain data for the hover template (the figure's texts are escaped; the template keeps its markup)
        "hover": [
            label,
            f"{r.bound + ' ' if r.bound else ''}{r.value:,.4g} {r.unit}",
            r.how,
            f"id: {r.id} · source: {r.source_id}",
            caveat,
        ],  # fmt: skip
    }


_RATE_HOVER = "<b>%{customdata[0]}</b><br>%{customdata[1]}<br>%{customdata[2]}<br>%{customdata[3]}<br>%{customdata[4]}"


def rate_figure(run: Rate, refs: list[Rate], run_label: str) -> go.Figure:
    """This run's rate of work (GFLOP/s) next to the seed articles', on a linear axis, this run on top.

    The articles publish times of their own shapes; their GFLOP/s is derived from that time and the
    shape's FLOPs (hatched), so a different shape is compared as work per second, never as a time.
    A bar's colour comes from the row's own device type (article 000's 'TPU' runtime ran on the CPU).
    """
    labels = [r.label.removesuffix(" (published)") for r in refs]
    dup = {lab for lab in labels if labels.count(lab) > 1}
    labels = [f"{lab} · {r.source_id}" if lab in dup else lab for lab, r in zip(labels, refs, strict=True)]
    bars = [_rate_bar(run, run_label, True)]
    bars += sorted((_rate_bar(r, lab, False) for r, lab in zip(refs, labels, strict=True)), key=lambda b: -b["value"])
    fig = go.Figure()
    for key, basis in dict.fromkeys((b["key"], b["basis"]) for b in bars):
        sel = [b for b in bars if (b["key"], b["basis"]) == (key, basis)]
        source = {"local": "", "measured": " (measured by AccelBench)"}.get(basis, " (published)")
        fig.add_trace(
            go.Bar(
                y=[b["label"] for b in sel],
                x=[b["value"] for b in sel],
                orientation="h",
                name=DEVICE_NAMES.get(key, key) + source,
                marker={
                    "color": DEVICE_COLOURS.get(key, NEUTRAL),
                    "pattern": {"shape": ["/" * b["hatched"] for b in sel]},
                },
                text=[b["text"] for b in sel],
                textposition="outside",
                cliponaxis=False,
                customdata=[b["hover"] for b in sel],
                hovertemplate=_RATE_HOVER + "<extra></extra>",
            )
        )
    if any(b["hatched"] for b in bars):
        fig.add_trace(hatch_legend())
    fig.update_xaxes(type="linear", range=[0, max(b["value"] for b in bars) * 1.2])
    fig.update_yaxes(categoryorder="array", categoryarray=[b["label"] for b in reversed(bars)])
    title = f"{run.workload}: this run vs reference rows, as rates of work"
    return finish(fig, f"Rate of work ({run.unit}) — higher is better", "Hardware", title, bar_height(len(bars)))
