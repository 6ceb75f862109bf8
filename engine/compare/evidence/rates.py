"""The evidence of an answer as rates of work, made once (evidence_of, the first stage of answer_for_run) and
split once by the one same-workload rule: the run itself, your store's runs and the reference table's rows.

Your store's runs are the finished runs in the results store on a GPU or TPU — this machine's earlier runs, a
teammate's pushed or pulled runs, an imported export — basis "measured", each labelled with where and when it ran
("measured on Tesla T4, run 2026-11-25, label colab-t4"). They are the first evidence for a device
(engine.compare.picks ranks them before AccelBench's reference pack, then published rows, then estimates); runs of
other models on those devices feed the estimator's points, as every reference row of the run's task does. The
Run card, Compare and `engine compare` fill `store_runs` from the store (runs_of).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from engine.catalog.backends import short_label
from engine.compare.evidence.reshape import reshaped
from engine.compare.facts import likeforlike as lfl
from engine.compare.facts.workload import not_comparable
from engine.reference.units import HARDWARE

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
    return [r for r in (store_rate(run) for run in runs or ()) if r is not None and _of_base(base, r)]


@dataclass(frozen=True)
class Evidence:
    """What an answer starts from, each row a rate of work made once.

    Attributes:
      base: the run's own rate.
      store: your store's finished GPU/TPU runs of the run's task and unit (any model; the run left out).
      reference: every reference row of the run's task that yields a rate (any model): with `store`, the
        estimator's points.
      same_store, same_reference: the store's rows on a known GPU or TPU, and the reference rows, of the run's
        own workload (the one rule: engine.compare.facts.workload.not_comparable), and the model's rows at another
        input shape converted to the run's by its traced cost (engine.compare.evidence.reshape, named in each).
      other_shapes: reference rows of the same model or operation at another input shape, with the reason:
        listed apart, never in a ratio.
    """

    base: lfl.Rate
    store: tuple[lfl.Rate, ...] = ()
    reference: tuple[lfl.Rate, ...] = ()
    same_store: tuple[lfl.Rate, ...] = ()
    same_reference: tuple[lfl.Rate, ...] = ()
    other_shapes: tuple[tuple[lfl.Rate, str], ...] = ()


def evidence_of(
    run: Mapping[str, Any], ref: pd.DataFrame | None, runs: Iterable[Mapping[str, Any]] | None = None
) -> Evidence | None:
    """The run, the store's `runs` (runs_of) and the reference table as rates; None when the run measured no
    rate (failed, cancelled)."""
    base = lfl.rate_of_run(run)
    if base is None:
        return None
    return _split(base, store_rates(base, runs), ref)


def evidence_for(base: lfl.Rate, ref: pd.DataFrame | None, store: Iterable[lfl.Rate] = ()) -> Evidence:
    """The same evidence for a rate already made and store rates already read (store_rates)."""
    return _split(base, list(store), ref)


def _of_base(base: lfl.Rate, r: lfl.Rate) -> bool:
    return r.id != base.id and r.task == base.task and r.unit == base.unit


def split(base: lfl.Rate, rates: Iterable[lfl.Rate]) -> tuple[list[lfl.Rate], list[tuple[lfl.Rate, str]]]:
    """`rates` split by the one same-workload rule (engine.compare.facts.workload.not_comparable): those of
    `base`'s workload, and the others with the reason, each in the order given."""
    same, other = [], []
    for r in rates:
        why = not_comparable(base.settings, r.settings, r.derivation)
        if why:
            other.append((r, why))
        else:
            same.append(r)
    return same, other


def _split(base: lfl.Rate, store: list[lfl.Rate], ref: pd.DataFrame | None) -> Evidence:
    rows = ref[ref["task"] == base.task].to_dict("records") if ref is not None and not ref.empty else []
    reference = [(r, str(row.get("model") or "")) for row in rows for r in [lfl.rate_of_reference(row)] if r]
    same_reference, other_shapes = split(base, [r for r, model in reference if model == base.workload])
    same_store, store_shapes = split(base, [r for r in store if r.on_accelerator])
    # the model's figures at another input shape, converted to the run's by its traced cost (evidence.reshape)
    converted = reshaped(base, [*other_shapes, *store_shapes])  # in one call
    same_reference += [r for r in converted if r.origin != ORIGIN]
    same_store += [r for r in converted if r.origin == ORIGIN]
    return Evidence(
        base, tuple(store), tuple(r for r, _ in reference), tuple(same_store), tuple(same_reference),
        tuple(other_shapes),
    )  # fmt: skip
