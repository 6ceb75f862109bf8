"""Your store's runs as evidence: the finished runs in the results store on a GPU or TPU — this machine's
earlier runs, a teammate's pushed or pulled runs, an imported export — as rates of work, basis "measured",
each labelled with where and when it ran ("measured on Tesla T4, run 2026-11-25, label colab-t4").

They are the first evidence for a device (engine.compare.picks ranks them before AccelBench's reference pack,
then published rows, then estimates) under the same one-workload rule as every row; runs of other models on
those devices also feed the estimator's ratios. One step of the answer's pipeline: answer_for_run calls
store_rates once; the Run card, Compare and `engine compare` fill its `store_runs` from the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.compare.facts import likeforlike as lfl
from engine.reference.units import HARDWARE
from engine.spec.backends import short_label

SCANNED = 2000  # the newest finished runs of a store read for an answer (a team store may hold 100,000)
ORIGIN = "store"


def runs_of(store: Any, limit: int = SCANNED) -> list[dict[str, Any]]:
    """The newest finished runs of a results store (engine.runs.store.Store), for `answer_for_run(store_runs=…)`."""
    return [dict(r) for r in store.list_runs(statuses=["ok"], limit=limit)]


def provenance(run: Mapping[str, Any]) -> str:
    """Where and when a stored run measured: 'measured on Tesla T4, run 2026-11-25, label colab-t4'."""
    device = str(run.get("device_name") or str(run.get("device") or "").upper() or "another device")
    parts = [f"measured on {device}"]
    if created := str(run.get("created_at") or "")[:10]:
        parts.append(f"run {created}")
    if label := str(run.get("label") or "").strip():
        parts.append(f"label {label}")
    source = str(run.get("source") or "")
    if source.startswith("import"):
        parts.append(f"imported from {Path(source.partition(':')[2] or 'a file').name}")
    if node := str(run.get("node") or "").strip():
        parts.append(f"Ray node {node}")
    if not label and not source.startswith("import") and not node:
        parts.append("in your store")
    return ", ".join(parts)


def store_rate(run: Mapping[str, Any]) -> lfl.Rate | None:
    """One finished run on a known GPU or TPU as a measured rate labelled with its provenance; None for a CPU
    run, an unrecognised device, or a run that measured no rate."""
    if run.get("status") not in (None, "ok"):
        return None
    r = lfl.rate_of_run(run, origin=ORIGIN)
    if r is None or not r.on_accelerator:
        return None
    dev = HARDWARE[r.hardware_key]
    where = provenance(run)
    tag = str(run.get("label") or "").strip() or f"run {str(run.get('run_id') or '')[-6:]}"
    what = f"{short_label(run.get('backend'))}, {r.precision_words}"
    settings = {
        **r.settings, "source_kind": ORIGIN, "hardware": dev.short, "provenance": where,
        "run_label": run.get("label") or None, "created_at": run.get("created_at"),
        "device_name": run.get("device_name"), "run_source": run.get("source"),
    }  # fmt: skip
    return replace(
        r, label=f"{dev.short} (your store, {tag}, {what})", how=f"{where}: {r.how.removeprefix('measured: ')}",
        source_id="STORE", settings=settings, basis="measured",
    )  # fmt: skip


def store_rates(base: lfl.Rate, runs: Iterable[Mapping[str, Any]] | None) -> list[lfl.Rate]:
    """Every finished GPU/TPU run of the store of `base`'s task as a rate (the baseline's own run left out), of
    any model: engine.compare.picks keeps those of the same workload as rows (the one rule) and hands every one
    to the estimator as a measured point."""
    out = []
    for run in runs or ():
        r = store_rate(run)
        if r is not None and r.id != base.id and r.task == base.task and r.unit == base.unit:
            out.append(r)
    return out
