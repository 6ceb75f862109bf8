"""The "Which device?" chart: one horizontal bar per device for a run's workload, fastest at the top, coloured
by basis — measured and published solid, an estimate lighter and hatched with its range as an error bar — and
the user's own run at 1× for scale. No streamlit here; engine.compare.which builds the rows.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from engine.charts.base import DEVICE_COLOURS, GOOD, NEUTRAL, ORIGIN_COLOURS, bar_height, empty_figure, finish

BASIS_COLOURS = {
    "measured": GOOD,
    "scaled": "#0891b2",
    "published": ORIGIN_COLOURS["reference"],
    "estimate": "#9333ea",
    "your run": DEVICE_COLOURS["local"],
}
BASIS_NAMES = {
    "estimate": "estimate (lighter, hatched; bar = range)",
    "scaled": "scaled (measured × published ratio)",
    "your run": "your run (1×)",
}
RANGE_COLOUR = "#94a3b8"  # a mid grey that reads on the light and the dark theme


def _basis_word(basis: str) -> str:
    return "estimate" if str(basis).startswith("estimate") else str(basis)


def _marker(colour: str, estimate: bool) -> dict:
    """Solid for a figure; for an estimate a light fill (the colour at a quarter strength, readable on the light
    and the dark theme) under hatching in the full colour, with a full-colour outline."""
    if not estimate:
        return {"color": colour, "pattern": {"shape": ""}}
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return {
        "color": f"rgba({r},{g},{b},0.25)",
        "pattern": {"shape": "/", "fgcolor": colour, "fillmode": "overlay", "solidity": 0.35},
        "line": {"color": colour, "width": 1.5},
    }


def _range(g: pd.DataFrame) -> dict | None:
    """The rows' stated ranges as error bars (None when no row has one)."""
    if g["low"].isna().all():
        return None
    rate, low, high = g["rate"].astype(float), g["low"].astype(float), g["high"].astype(float)
    return {
        "type": "data", "symmetric": False, "array": (high - rate).fillna(0).tolist(),
        "arrayminus": (rate - low).fillna(0).tolist(), "color": RANGE_COLOUR, "thickness": 1.5, "width": 5,
    }  # fmt: skip


def which_chart(
    rows: pd.DataFrame, baseline_label: str, baseline_rate: float, unit: str = "examples/s", workload: str = ""
) -> go.Figure:
    """`rows`: engine.compare.which.frame, fastest first (device, basis, rate, rate_text, low, high, speedup_text).
    The baseline (the user's run) is drawn as its own bar so every bar reads against it."""
    if rows.empty:
        return empty_figure("No device has a figure or an estimate for this workload.")
    mine = pd.DataFrame(
        [{"device": f"your run: {baseline_label}", "basis": "your run", "rate": baseline_rate, "low": None,
          "high": None, "rate_text": f"{baseline_rate:,.3g}" if baseline_rate < 100 else f"{baseline_rate:,.0f}",
          "speedup_text": "1×", "estimate": False}]
    )  # fmt: skip
    # the rows come fastest first (engine.compare.which.sort_key breaks ties); the run goes where its rate falls
    at = next((i for i, v in enumerate(rows["rate"]) if float(v) < baseline_rate), len(rows))
    df = pd.concat([rows.iloc[:at], mine, rows.iloc[at:]], ignore_index=True)
    df["word"] = [_basis_word(b) for b in df["basis"]]
    pairs = zip(df["device"], df["basis"], df["word"], strict=True)
    df["y"] = [d if w == "your run" else f"{d} · {b}" for d, b, w in pairs]
    df["label"] = [f"  {r} · {s}" for r, s in zip(df["rate_text"], df["speedup_text"], strict=True)]
    df = df.iloc[::-1]  # plotly draws bottom-up: fastest at the top, in the table's order
    known = [w for w in ("measured", "scaled", "published", "estimate", "your run") if w in set(df["word"])]
    fig = go.Figure()
    for word in known + sorted(set(df["word"]) - set(BASIS_COLOURS)):  # a basis word not known here: as it is
        g = df[df["word"] == word]
        est = word == "estimate"
        fig.add_trace(
            go.Bar(
                y=g["y"],
                x=g["rate"],
                orientation="h",
                name=BASIS_NAMES.get(word, word),
                marker=_marker(BASIS_COLOURS.get(word, NEUTRAL), est),
                error_x=_range(g),
                customdata=g["label"],
                hovertemplate="%{y}<br>%{customdata}<extra>%{fullData.name}</extra>",
            )
        )
    ends = df[["rate", "high"]].astype(float).max(axis=1)  # a label starts after the bar AND its range
    fig.add_trace(
        go.Scatter(
            y=df["y"], x=ends, mode="text", text=df["label"], textposition="middle right", cliponaxis=False,
            showlegend=False, hoverinfo="skip",
        )
    )  # fmt: skip
    fig.update_layout(barmode="overlay", bargap=0.25)
    fig.update_yaxes(categoryorder="array", categoryarray=list(df["y"]))
    fig.update_xaxes(type="linear", range=[0, float(ends.max()) * 1.6])  # room for the labels
    return finish(
        fig,
        f"Training rate of ONE device ({unit}; labels: rate · × faster than your run)",
        "Device · basis",
        f"One device's training rate{' on ' + workload if workload else ''}, fastest first",
        bar_height(len(df)),
    )
