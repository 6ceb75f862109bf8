"""The answer as one forward pipeline (issue 36 item 7), measured with a tracer (`sys.setprofile`) on a real answer:
a stored ResNet-50 mixed-bf16 CPU run, a small results store written here (that run and a teammate's T4 run of the
same workload), the real reference table, asked `--device all` (engine.compare.which.which_device, which calls
engine.compare.answer.answer_for_run with every device estimated) and `--device h100` (answer_for_run).

A RE-ENTRY is a distinct pair of modules (A, B), both under engine/compare and A ≠ B, such that A calls into B
after the flow had already entered B and returned out of it (B was "left" and A comes back to it). Each pair is
counted once, however many times or from however many lines A comes back: it measures how often the code goes
back to a module it was done with, not how many rows pass through. Module top-level code (imports) is not a
call (nor are the dataclass methods made at import); every module of engine.compare is imported and its caches
cleared first, so the count does not depend on which test ran before.
On the flat layout before the stage packages (commit 5caf5bd) this gives 54, as issue 36 says (`--device all` 54,
`--device h100` 25, all among those): into workload 12, likeforlike 10, single 6, step_model 4, scaled 3, points 3,
saturation 2, which_rows 2, and 1 each into compared, efficiency, grade, picks, cost, step_fit, one_scale,
estimate, step_floor, model_flops, error_case, input_cap.

A STAGE is a package under engine/compare laid out as the data flows: evidence → scale → estimate → rank →
words; engine.compare.facts holds the shared facts every stage reads (a workload's and a device's), and the
modules at the top of engine/compare (answer, which, picks) are the entries that call the stages in turn. A call
from a later stage into an earlier stage's module goes backwards and must not happen.

A HELPER is a module of engine.compare.facts, or a LEAF of a stage: a module that, in the traced flow, calls into
no module of engine.compare outside the facts (it answers and returns, it never drives the flow — the step model's
formula, its fitted efficiencies). A re-entry may go only to a helper.
"""

from __future__ import annotations

import collections
import functools
import importlib
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from test_which_device import R50

import engine.compare
from engine.compare import answer as ans
from engine.compare import which as wd
from engine.compare.evidence.rates import runs_of
from engine.reference.data import load_reference
from engine.runs.store import Store

PACKAGE = "engine.compare"
STAGES = ("evidence", "scale", "estimate", "rank", "words")  # in the order the data flows
HELPERS = ("facts",)  # shared facts; with the stages' leaves (Trace.leaves), the only modules a re-entry may go to
MAX_REENTRIES = 14


def _module(frame: FrameType | None) -> str:
    return str(frame.f_globals.get("__name__", "")) if frame is not None else ""


def stage_of(module: str) -> str | None:
    """'evidence', 'scale', …, 'facts' for a module of a stage or helper package; None for an entry module."""
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["engine", "compare"] else None


@functools.cache
def _clear_caches() -> None:
    for m in pkgutil.walk_packages(engine.compare.__path__, PACKAGE + "."):  # imported before, not while, traced
        importlib.import_module(m.name)
    for name, mod in list(sys.modules.items()):
        if name.startswith(PACKAGE):
            for obj in vars(mod).values():
                if callable(getattr(obj, "cache_clear", None)) and getattr(obj, "__module__", "") == name:
                    obj.cache_clear()


class Trace:
    """Every (caller module, callee module) pair of engine.compare that re-enters a module already left, and every
    call from a later stage into an earlier stage's module."""

    def __init__(self) -> None:
        self.left: set[str] = set()
        self.reentries: set[tuple[str, str]] = set()
        self.backwards: set[tuple[str, str]] = set()
        self.calls: set[tuple[str, str]] = set()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return") or frame.f_code.co_name in ("<module>", "__create_fn__"):
            return
        callee, caller = _module(frame), _module(frame.f_back)
        if not callee.startswith(PACKAGE) or caller == callee:
            return
        if event == "return":
            self.left.add(callee)
            return
        if not caller.startswith(PACKAGE):
            return
        self.calls.add((caller, callee))
        if callee in self.left:
            self.reentries.add((caller, callee))
        a, b = stage_of(caller), stage_of(callee)
        if a in STAGES and b in STAGES and STAGES.index(b) < STAGES.index(a):
            self.backwards.add((caller, callee))

    def leaves(self) -> set[str]:
        """The modules of a stage that were called and called no engine.compare module outside the facts."""
        drives = {a for a, b in self.calls if stage_of(b) not in HELPERS}
        return {b for _, b in self.calls if stage_of(b) in STAGES and b not in drives}

    def run(self, fn: Callable[[], Any]) -> Any:
        sys.setprofile(self)
        try:
            return fn()
        finally:
            sys.setprofile(None)

    def by_module(self) -> dict[str, int]:
        return dict(collections.Counter(b.removeprefix(PACKAGE + ".") for _, b in self.reentries).most_common())


@pytest.fixture(scope="module")
def traced(tmp_path_factory, ref) -> dict[str, Trace]:
    store = Store(Path(tmp_path_factory.mktemp("forward")) / "store.db")
    run = {**R50, "precision": "mixed_bfloat16"}
    store.insert_run(dict(run))
    store.insert_run(run | {"run_id": "20261124-101500-c0fa74", "created_at": "2026-11-24T10:15:00Z",
                            "device": "gpu", "device_name": "Tesla T4", "examples_per_sec": 300.0,
                            "step_time_ms_median": 26.7})  # fmt: skip
    runs = runs_of(store)
    _clear_caches()
    out = {"all": Trace(), "h100": Trace()}
    w = out["all"].run(lambda: wd.which_device(run, ref, store_runs=runs))
    assert w is not None and {"h100", "t4"} <= {r.hardware_key for r in w.rows}
    a = out["h100"].run(lambda: ans.answer_for_run(run, ref, device="h100", store_runs=runs))
    assert a is not None and any(c.rate.hardware_key == "h100" for c in a.rows[1:])
    return out


@pytest.fixture(scope="module")
def ref():
    return load_reference()


def test_the_tracer_sees_the_pipeline(traced):
    """The tracer is not blind: the flow does leave and come back to modules (the rows, the rules of a workload)."""
    assert traced["all"].left and traced["h100"].left


def test_the_tracer_counts_a_known_reentry():
    """A flow whose re-entries are known (issue 45: a tracer that saw nothing would pass a non-empty check): the
    answer's rates for ONE datasheet peak enter the rate rules once; for TWO, answer comes back to likeforlike after
    leaving it — one re-entry, counted once per pair however often it happens (a third id adds none)."""
    _clear_caches()
    one, two, three = Trace(), Trace(), Trace()
    one.run(lambda: ans.rates_for_ids(["peak:h100"], None))
    two.run(lambda: ans.rates_for_ids(["peak:h100", "peak:a100"], None))
    three.run(lambda: ans.rates_for_ids(["peak:h100", "peak:a100", "peak:t4"], None))
    known = ("engine.compare.answer", "engine.compare.facts.likeforlike")
    assert known not in one.reentries and known in two.reentries
    assert three.reentries == two.reentries and len(two.reentries) == len(one.reentries) + 2


def test_at_most_ten_reentries_all_into_helpers(traced):
    """Baseline on the flat layout (5caf5bd): 54 (workload 12, likeforlike 10, single 6, step_model 4, scaled 3,
    points 3, saturation 2, which_rows 2, 12 modules 1 each); stage packages: 36; a device's facts in one table made
    at import, a row's facts made once with its Rate, an answer's compared rows made in one call: 17; the evidence
    made once as rates and split once by the one rule (engine.compare.evidence.rates), points grouped once with their
    middle figures, the fit's figures made once per answer: 10 — the Rate constructors and the one rule (likeforlike,
    workload, single), the plateau rule (read once by the saturation flag, once by the estimate's evidence), the step
    model's formula and its fit (leaves of the estimate stage), a source's stack words, the table's rows. Issue 42: 13 —
    the cost facts (facts.cost, read by the estimate and by the traced-cost conversion), the model FLOPs they read,
    and the stack factor's start points (estimate.points, a leaf); the estimator itself is entered once (one batched
    call for the stack factor's pairs and the answer's devices); 14 — the extrapolation leaf (how far a new chip lies
    beyond every fitted device, estimate.extrapolation), entered once per estimate."""
    both = traced["all"].reentries | traced["h100"].reentries
    counts = {k: (len(t.reentries), t.by_module()) for k, t in traced.items()}
    assert len(both) <= MAX_REENTRIES, (len(both), counts, sorted(both))  # the union of both answers
    drives = {a for t in traced.values() for a, b in t.calls if stage_of(b) not in HELPERS}
    leaves = (traced["all"].leaves() | traced["h100"].leaves()) - drives  # a leaf in each answer that calls it
    helpers = {b for _, b in both if stage_of(b) in HELPERS or b in leaves}
    assert {b for _, b in both} <= helpers, sorted(both)
    # the tracer tells a leaf from a module that drives the flow
    assert {"engine.compare.estimate.step_fit"} <= leaves  # the step model's formula: facts.cost (a helper)
    assert not {"engine.compare.estimate.estimate", "engine.compare.estimate.rows"} & leaves


def test_no_later_stage_calls_an_earlier_stage(traced):
    back = traced["all"].backwards | traced["h100"].backwards
    assert not back, sorted(back)
