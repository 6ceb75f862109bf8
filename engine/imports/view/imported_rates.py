"""Imported History rows on Compare: one configuration × metric becomes one rate (engine.compare.facts.likeforlike)
with its noise band, so it can stand next to local runs and reference rows, and two rows whose difference is
inside the band are said to be "within noise".

A lower-is-better metric (minutes to train, latency, seconds per epoch) becomes its inverse, "runs per
minute": a ratio of two such rates is then baseline time ÷ time, always "how many times faster".
Pure pandas; no streamlit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import pandas as pd

from engine.compare.facts.likeforlike import Rate
from engine.compare.facts.workload import device_unit
from engine.imports.facts.import_mapping import own_axis
from engine.imports.facts.units import unit_of
from engine.imports.roles.settings import SETTING, setting_columns
from engine.imports.view.default_view import default_metric
from engine.imports.view.imported import CONFIG, default_target, time_to_target
from engine.results.history import higher_is_better, metric_columns, metric_title


@dataclass(frozen=True)
class Band:
    """The spread of one configuration's repeated rows, in the rate's unit: median, min, max, CV (%), rows."""

    median: float
    low: float
    high: float
    cv_pct: float
    rows: int


def _text(v: object) -> str:
    return "" if v is None or (isinstance(v, float) and pd.isna(v)) or v is pd.NA else str(v)


def _unit(metric: str, higher: bool) -> tuple[str, str]:
    """(the rate's unit, its task): AccelBench's own axis for examples/s, else the metric's own name."""
    if metric == "examples_per_sec" or own_axis("", unit_of(metric)):  # a rate named by its file: same family
        return "examples/s", "training"
    title = metric_title(metric).split(" · ")[0]
    return (title if higher else f"1 ÷ {title} (lower is better, inverted)"), "imported"


def is_curve(df: pd.DataFrame, metric: str) -> bool:
    """An accuracy or loss logged over training time (AlgoPerf, DAWNBench, MLPerf logs): a curve, whose result is
    the time it took to reach a target — never the median of its points."""
    title = metric_title(metric).lower()
    if not ("accuracy" in title or "loss" in title) or "elapsed_s" not in df.columns or metric not in df.columns:
        return False
    return bool(df.dropna(subset=[metric])["elapsed_s"].notna().any())


def _curve_rates(df: pd.DataFrame, by: list[str], metric: str, name: str) -> list[tuple[Rate, Band]]:
    """Each configuration's curve as the time it took to reach the default target (a published one where known,
    the log's own target where its sidecar gives one), as a rate: 1 ÷ hours, so faster reads as more."""
    target, why = default_target(df, metric)
    out = []
    for key, g in df.dropna(subset=[metric, "elapsed_s"]).groupby(by, dropna=False, sort=True):
        hours = time_to_target(g, metric, target)["hours"].median()
        if not hours or pd.isna(hours) or hours <= 0:
            continue  # the target was never reached: no time to compare
        cfg = dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True))
        band = Band(1.0 / hours, 1.0 / hours, 1.0 / hours, 0.0, 1)
        title = f"hours to {target:g} {metric_title(metric)}"
        rate = _rate(cfg, g, metric, f"1 ÷ {title} (lower is better, inverted)", "imported", band, False, name)
        how = f"imported from {name}: a training curve reaching {target:g} after {hours:.3g} h ({why}); the rate is 1 ÷ hours"
        out.append((replace(rate, how=how), band))
    return out


def rates_of_rows(df: pd.DataFrame, name: str) -> list[tuple[Rate, Band]]:
    """Every configuration × metric of imported rows as a rate (the median; a curve's time to its target) and its
    band."""
    by = [c for c in CONFIG if c in df.columns and df[c].notna().any()] + setting_columns(df)
    out: list[tuple[Rate, Band]] = []
    for metric in metric_columns(df):
        higher = higher_is_better(metric)
        if higher is None or not by:
            continue  # a metric whose better direction is unknown cannot say "faster"
        if is_curve(df, metric):
            out += _curve_rates(df, by, metric, name)
            continue
        data = df.dropna(subset=[metric])
        data = data[data[metric] > 0]
        for key, g in data.groupby(by, dropna=False, sort=True):
            cfg = dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True))
            raw = g[metric].astype(float)
            rate = raw if higher else 1.0 / raw  # the median of times, inverted: 1 ÷ median(minutes)
            unit, task = _unit(metric, higher)
            band = Band(float(raw.median() if higher else 1.0 / raw.median()), float(rate.min()), float(rate.max()),
                        float(raw.std() / raw.mean() * 100) if len(raw) > 1 else 0.0, len(raw))  # fmt: skip
            out.append((_rate(cfg, g, metric, unit, task, band, higher, name), band))
    return out


def _rate(cfg: dict, g: pd.DataFrame, metric: str, unit: str, task: str, band: Band, higher: bool, name: str) -> Rate:
    device, count = _text(cfg.get("device_label")) or "device?", cfg.get("device_count")
    n = int(float(_text(count))) if _text(count) else None
    model = _text(cfg.get("model"))
    memory = f"{float(cfg['memory_gb']):g}GB" if _text(cfg.get("memory_gb")) else ""
    form = " ".join(w for w in _text(cfg.get("form_factor")).split() if w not in device.split())  # H100 PCIe: Gen5
    build = " ".join(x for x in (memory if memory not in device else "", form) if x)
    detail = ", ".join(
        x for x in (" ".join(x for x in (build, _text(cfg.get("variant"))) if x), _text(cfg.get("precision"))) if x
    )
    batch = f"batch {float(_text(cfg.get('global_batch_size'))):g}" if _text(cfg.get("global_batch_size")) else ""
    settings_said = " · ".join(f"{k.removeprefix(SETTING)} {_text(v)}" for k, v in cfg.items() if k.startswith(SETTING))
    detail = ", ".join(x for x in (detail, batch, settings_said) if x)  # rows that differ only in a setting differ here
    label = f"{n}× " * bool(n and n > 1) + device + (f" {detail}" if detail else "") + f" · {model} ({name})"
    first = g.iloc[0]
    how = f"imported from {name}: median of {band.rows} row{'s' * (band.rows > 1)}"
    if not higher:
        how += f"; {metric_title(metric)} is lower-is-better, so the rate is 1 ÷ it"
    settings = {
        "hardware_key": _text(first.get("hardware_key")), "hardware_count": n, "model": model, "task": task,
        "precision": _text(cfg.get("precision")), "batch_size": cfg.get("global_batch_size"),
        "framework": _text(cfg.get("framework")), "hardware": device,
        # a stated count is in the table's devices (GPUs, TPU chips): a 1-GPU row is a single-device figure
        "count_unit": device_unit(_text(first.get("hardware_key"))) if n else None,
    }  # fmt: skip
    key = "|".join(_text(v) for v in cfg.values())
    return Rate(
        id=f"imported:{name}:{metric}:{key}", label=label, origin="imported", task=task, workload=model,
        value=band.median, unit=unit, devices=float(n) if n else None, derivation="measured", how=how,
        hardware_key=_text(first.get("hardware_key")), source_id=f"file:{name}", settings=settings,
    )  # fmt: skip


def _lead(model: str) -> int:
    """0 for ResNet-50, the workload vendor tables lead with (lambdal, tf_cnn_benchmarks, MLPerf): the tie-break
    when several models were measured on as many devices; 1 for any other."""
    return 0 if "resnet50" in re.sub(r"[^a-z0-9]", "", model.lower()) else 1


def headline_model(data: pd.DataFrame) -> str:
    """The file's headline workload: the model measured on the most devices (device × count), then with the most
    rows, then ResNet-50, then by name — lambdal's tables → resnet50, not the alphabetically first bert."""
    if data.empty or "model" not in data.columns:
        return ""
    parts = [c for c in ("device_label", "device_count") if c in data.columns]
    models = data.dropna(subset=["model"]).astype({"model": str})
    devices = models.groupby("model")[parts].apply(lambda g: len(g.drop_duplicates())) if parts else None
    rows = models.groupby("model").size()
    ranked = sorted(rows.index, key=lambda m: (-(devices[m] if devices is not None else 0), -rows[m], _lead(m), m))
    return str(ranked[0]) if ranked else ""


def _headline_pairs(df: pd.DataFrame, name: str) -> tuple[list[tuple[Rate, Band]], list[tuple[Rate, Band]]]:
    """(the headline model's rates of the default metric, best first; two of them on two devices at the same
    settings, or [])."""
    metrics = metric_columns(df)
    if not metrics or "model" not in df.columns:
        return [], []
    metric = default_metric(df, metrics, per_device=False)
    data = df.dropna(subset=[metric])
    model = headline_model(data)
    pairs = [(r, b) for r, b in rates_of_rows(data[data["model"] == model], name) if r.id.split(":")[2] == metric]
    pairs.sort(key=lambda rb: (rb[0].devices != 1, -rb[1].rows, rb[0].label))
    by = [c for c in CONFIG if c in data.columns and data[c].notna().any()] + setting_columns(data)
    return pairs, same_settings(pairs, by, f"imported:{name}:{metric}:")


def headline(df: pd.DataFrame, name: str, most: int = 2) -> list[str]:
    """The ids of the rates Compare opens with when History sends a file: the file's default metric (its rate of
    work; a curve's validation accuracy) on its headline model — two different devices at the same settings where
    the file has them (never one GPU at two batch sizes), else single-device figures first, then the
    configurations with the most rows."""
    pairs, paired = _headline_pairs(df, name)
    return [r.id for r, _ in (paired or pairs)[:most]]


def headline_why(df: pd.DataFrame, name: str) -> str:
    """Why Use on Compare cannot pair two devices at the same settings; "" when it can."""
    pairs, paired = _headline_pairs(df, name)
    if paired or not pairs:
        return ""
    devices = {_device(r) for r, _ in pairs}
    if len(devices) < 2:
        return f"one device only ({pairs[0][0].label.split(' · ')[0]}): Compare sets it beside your runs"
    return "no two devices were measured at the same settings: Compare opens with the first two configurations"


_HARDWARE = ("device_label", "memory_gb", "form_factor")  # what two devices differ in; all else is a setting


def same_settings(pairs: list[tuple[Rate, Band]], by: list[str], prefix: str) -> list[tuple[Rate, Band]]:
    """The first two rates (in `pairs`' order) of two different devices at the same settings (count, precision,
    batch, framework, variant and every setting column), or [] when no two devices share settings. `by` is how
    the rates were grouped (their ids end with its values joined by '|' after `prefix`)."""
    keep = [i for i, c in enumerate(by) if c not in _HARDWARE]
    seen: dict[tuple[str, ...], tuple[Rate, Band]] = {}
    for rate, band in pairs:
        values = rate.id[len(prefix) :].split("|")
        first = seen.setdefault(tuple(values[i] for i in keep if i < len(values)), (rate, band))
        if _device(first[0]) != _device(rate):
            return [first, (rate, band)]
    return []


def _device(rate: Rate) -> str:
    return rate.hardware_key or str(rate.settings.get("hardware"))


def within_noise(subject: float, baseline: float, bands: list[Band]) -> bool:
    """True when two rates differ by no more than the widest band (max − min of repeats) either row has."""
    widths = [b.high - b.low for b in bands if b.rows > 1]
    return bool(widths) and abs(subject - baseline) <= max(widths)
