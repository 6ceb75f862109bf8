"""The step model's efficiencies, fitted on the measured and published figures (engine.compare.estimate.step_model).

e_c per precision class and e_m are shared by every device, times a trend in the device's datasheet size (each
efficiency × (peak or bandwidth ÷ the figures' median)^slope, one fitted slope each: a chip with more bandwidth
reaches a smaller share of it), times a factor per silicon (engine.catalog.hardware_table `silicon`) where that
silicon's figures allow, held to 1 by a penalty where they do not. A device with no figures takes its silicon
sibling's factors (an H200 or GH200 the H100's: the same GH100 die), else the trend alone (issue 36 item 6). Each model also
gets a level (its software stack; its count being off for the workload the source ran): the median over its
figures, so only how a model's speed CHANGES between devices fits the efficiencies. A model with no figure
takes the median level of its kind. The range of an estimate comes from the fit's residuals (band).
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.compare.estimate.step_model import MIXED_BYTES, Cost
from engine.compare.facts.silicon import DEVICES, NONE

PENALTY = 0.5  # weight (in summed |log error|) that holds a silicon's factors near 1 where few figures speak
OVERHEADS_S = (0.0, 2.5e-4, 5e-4, 1e-3, 2e-3)  # per-step overheads the fit chooses from (seconds)
# the trend's slopes are searched within −SLOPE_LIMIT..0 in steps of 2·SLOPE_LIMIT ÷ (SLOPE_STEPS − 1), then finer around
# the best: fine enough that the slopes found do not hang on the grid. Never above 0: a bigger chip reaches no larger
# share of its peak or bandwidth. A positive slope fitted on few chips (+0.53 on the bandwidth from the figures before
# 2023) extrapolates to 100 % of a newer chip's bandwidth: H100 and B200 2–3× too fast in the chronological check
# (issue 42 item 5). OVERHEADS_S stops at 2 ms: a longer one let the overhead stand in for the trend (new silicon 20.9 %
# against 15.8 % with the grid to 16 ms).
SLOPE_LIMIT, SLOPE_STEPS = 0.5, 41
MIN_MARGIN = 1.25  # the narrowest range any carried estimate may claim (high ÷ low): the ratio method's margin
# the range: the 5th and 95th percentiles of the fit's residuals. They are in-sample (the fit saw the figure), so
# they understate a held-out error — the more, the fewer figures each fitted parameter has: a 90 % band held the true
# value ~85 % of the time with one figure left out, and 74.7 % of each launch's figures (from the fits before it, of
# 10–50 figures). So the residuals are scaled as a residual spread is for the parameters it was fitted with
# (_dof_scale): √(m ÷ (m − q)), m the residuals' own degrees of freedom (figures less models: a residual is a
# difference within one model, so the model's level cancels), q the fitted parameters — SHARED_PARAMETERS, plus
# each silicon's factor pair (held near 1 by PENALTY, so counted as one: a ridge pair's effective count lies
# between 0 and 2); at least one degree of freedom is left (a fit with as many parameters as figures says nothing
# of its error)
BAND = (0.05, 0.95)
SHARED_PARAMETERS = 6  # the two compute efficiencies, the bandwidth efficiency, the overhead and the two slopes
# an estimate for silicon with no figure here widens that band this much in log space: the widening chosen out of
# sample, leaving each silicon out (bench/bench_estimates.py --json, `leave_silicon_out.band`
# `widening_on_every_silicon`; silicon_check.py; a test holds them equal — it had drifted to 1.1 against a choice of
# 1.2; with the residuals scaled for their degrees of freedom the choice is 1.0: the scaling covers what it added)
NEW_SILICON_WIDENING = 1.0


@dataclass(frozen=True)
class Figure:
    """One (model, device, precision class) figure the fit sees.

    Attributes:
      model, hardware_key, precision_class: what ran; examples_per_sec: its middle figure, per device;
      batch: its per-device batch (None: not stated; no overhead term then).
      kind: the model's kind (workload.model_kind); cost: its per-example cost (step_model.cost_of; None: none
        known) — both worked out once per model by the caller, and not part of what makes two figures equal.
    """

    model: str
    hardware_key: str
    precision_class: str
    examples_per_sec: float
    batch: float | None
    kind: str = field(compare=False)
    cost: Cost | None = field(compare=False)
    key: tuple[str, str, str] = field(init=False, compare=False, repr=False)  # (model, device, precision class)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", (self.model, self.hardware_key, self.precision_class))


@dataclass(frozen=True)
class Fit:
    """Fitted efficiencies and levels.

    Attributes:
      e_c: compute efficiency per precision class (fraction of the dense peak) before the silicon factor.
      e_m: bandwidth efficiency before the silicon factor.
      factors: silicon → (compute factor, memory factor) where that silicon's figures moved them.
      overhead_s: per-step overhead (seconds).
      levels: model → its level (median over its figures of achieved ÷ modelled rate).
      kind_levels: kind → the median level of its models (for a model with no figure).
      residuals: log(true ÷ estimate) of each figure estimated from its model's figure on another device picked
        as an estimate picks it (same silicon, else nearest in modelled speed), scaled for the fit's degrees of
        freedom (_dof_scale); their quantiles make the range.
      level_spread: log level of each model around its kind's (added to the range of a model with no figure).
      n_figures: figures fitted on.
      trend: (compute slope, log peak it is centred on, bandwidth slope, log bandwidth it is centred on).
    """

    e_c: dict[str, float]
    e_m: float
    factors: dict[str, tuple[float, float]]
    overhead_s: float
    levels: dict[str, float]
    kind_levels: dict[str, float]
    residuals: tuple[float, ...]
    level_spread: tuple[float, ...]
    n_figures: int
    trend: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    def efficiencies(self, key: str, pc: str) -> tuple[float, float]:
        fc, fm = self.factors.get(_die(key), (1.0, 1.0))
        dev, (bc, c_peak, bm, c_bw) = DEVICES.get(key, NONE), self.trend
        peak, bw = dev.peak_flops[pc], dev.bandwidth
        fc *= math.exp(bc * (math.log(peak) - c_peak)) if peak else 1.0
        fm *= math.exp(bm * (math.log(bw) - c_bw)) if bw else 1.0
        return min(self.e_c[pc] * fc, 1.0), min(self.e_m * fm, 1.0)

    def borrowed_from(self, key: str) -> str | None:
        """The silicon whose fitted factors this device uses, where it has any."""
        return _die(key) if _die(key) in self.factors else None


def _die(key: str) -> str:
    """The silicon a device shares with its siblings (facts.silicon.DEVICES; an unknown device is its own)."""
    return DEVICES.get(key, NONE).silicon or key


def band(samples: Sequence[float]) -> tuple[float, float]:
    """The range's factors below and above an estimate: the BAND quantiles of log errors (a sample too small to
    have tails gets ± MIN_MARGIN; no range is narrower than MIN_MARGIN)."""
    if len(samples) < 5:
        return 1 / MIN_MARGIN, MIN_MARGIN
    q = statistics.quantiles(sorted(samples), n=100, method="inclusive")
    lo, hi = q[round(BAND[0] * 100) - 1], q[round(BAND[1] * 100) - 1]
    return min(math.exp(lo), MIN_MARGIN**-0.5), max(math.exp(hi), MIN_MARGIN**0.5)


def _median(xs: Sequence[float]) -> float:
    return float(statistics.median(xs)) if xs else 0.0


@dataclass(frozen=True)
class _Data:
    """The figures as arrays (one row per figure; op columns padded with zeros): what the loss reads."""

    rows: list
    compute: np.ndarray  # seconds per op at 100 % compute efficiency
    memory: np.ndarray  # seconds per op at 100 % bandwidth efficiency
    rest_s: np.ndarray
    inv_batch: np.ndarray
    log_true: np.ndarray
    is_mixed: np.ndarray
    models: list[str]
    by_model: list[np.ndarray]
    pad: np.ndarray  # each model's figures as one row of indices (padded with n, a NaN slot): one nanmedian
    sils: list[str]
    sil_of: np.ndarray
    spoken: set[int]  # silicons whose factors are free: a model was seen both on them and elsewhere
    log_peak: np.ndarray  # each figure's device's log peak FLOP/s and log bandwidth, less their medians (centre)
    log_bw: np.ndarray
    centre: tuple[float, float]


def _data(figures: tuple[Figure, ...]) -> _Data | None:
    rows = []
    for g in figures:
        dev = DEVICES.get(g.hardware_key, NONE)
        cost, peak, bw = g.cost, dev.peak_flops[g.precision_class], dev.bandwidth
        if cost is not None and peak and bw and g.examples_per_sec > 0:
            rows.append((g, cost, float(peak), float(bw)))
    if not rows:
        return None
    width, n = max(len(c.flops) for _, c, _, _ in rows), len(rows)
    flops, byts = np.zeros((n, width)), np.zeros((n, width))
    for i, (_, c, _, _) in enumerate(rows):
        flops[i, : len(c.flops)], byts[i, : len(c.bytes)] = c.flops, c.bytes
    s = np.array([MIXED_BYTES if g.precision_class == "mixed" else 1.0 for g, *_ in rows])
    bws = np.array([w for *_, w in rows])
    models = sorted({g.model for g, *_ in rows})
    by_model = [np.array([i for i, (g, *_) in enumerate(rows) if g.model == m]) for m in models]
    sils = sorted({_die(g.hardware_key) for g, *_ in rows})
    # a silicon's factors are free only where a model was seen both on it and elsewhere (else a level absorbs them)
    spoken = {
        sils.index(_die(g.hardware_key)) for g, *_ in rows
        if any(_die(h.hardware_key) != _die(g.hardware_key) and h.model == g.model for h, *_ in rows)
    }  # fmt: skip
    pad = np.full((len(by_model), max(len(ix) for ix in by_model)), n)
    for k, ix in enumerate(by_model):
        pad[k, : len(ix)] = ix
    log_peaks, log_bws = np.log([p for *_, p, _ in rows]), np.log(bws)
    centre = (float(np.median(log_peaks)), float(np.median(log_bws)))
    return _Data(
        rows, flops / np.array([p for *_, p, _ in rows])[:, None], s[:, None] * byts / bws[:, None],
        s * np.array([c.rest_bytes for _, c, _, _ in rows]) / bws,
        np.array([1.0 / g.batch if g.batch else 0.0 for g, *_ in rows]),
        np.log([g.examples_per_sec for g, *_ in rows]), np.array([g.precision_class == "mixed" for g, *_ in rows]),
        models, by_model, pad, sils, np.array([sils.index(_die(g.hardware_key)) for g, *_ in rows]), spoken,
        log_peaks - centre[0], log_bws - centre[1], centre,
    )  # fmt: skip


def _log_rates(d: _Data, p: dict) -> np.ndarray:
    ec = np.where(d.is_mixed, p["ec_mixed"], p["ec_float32"]) * np.exp(p["fc"][d.sil_of] + p["bc"] * d.log_peak)
    em = p["em"] * np.exp(p["fm"][d.sil_of] + p["bm"] * d.log_bw)
    ec, em = np.minimum(ec, 1.0), np.minimum(em, 1.0)
    t = np.maximum(d.compute / ec[:, None], d.memory / em[:, None]).sum(1)
    return -np.log(t + d.rest_s / em + p["overhead"] * d.inv_batch)


def _loss(d: _Data, p: dict) -> float:
    r = np.append(d.log_true - _log_rates(d, p), np.nan)[d.pad]
    total = float(np.nansum(np.abs(r - np.nanmedian(r, axis=1)[:, None])))
    return total + PENALTY * float((p["fc"] ** 2).sum() + (p["fm"] ** 2).sum())


def _search(of: Callable[[float], float], lo: float, hi: float, n_coarse: int = 13) -> float:
    """The best of a coarse grid, then of a fine grid one coarse step either side of it."""
    step = (hi - lo) / (n_coarse - 1)
    best = min(np.linspace(lo, hi, n_coarse), key=of)
    return float(min(np.linspace(best - step, best + step, 9), key=of))


def _optimise(d: _Data) -> dict:
    """Coordinate descent over the efficiencies, the overhead, the trend's slopes and the spoken silicons' factors
    (three sweeps)."""
    p: dict = {"ec_float32": 0.4, "ec_mixed": 0.3, "em": 0.6, "fc": np.zeros(len(d.sils)),
               "fm": np.zeros(len(d.sils)), "overhead": 0.0, "bc": 0.0, "bm": 0.0}  # fmt: skip
    for _sweep in range(3):
        for name in ("ec_float32", "ec_mixed", "em"):
            p[name] = math.exp(_search(lambda v, name=name: _loss(d, {**p, name: math.exp(v)}), math.log(0.02), 0.0))  # type: ignore[misc]
        p["overhead"] = min(OVERHEADS_S, key=lambda v: _loss(d, {**p, "overhead": v}))
        for name in ("bc", "bm"):
            got = _search(lambda v, name=name: _loss(d, {**p, name: v}), -SLOPE_LIMIT, 0.0, SLOPE_STEPS // 2 + 1)  # type: ignore[misc]
            p[name] = min(got, 0.0)  # the fine grid reaches one step past 0
        for j in d.spoken:
            for name in ("fc", "fm"):

                def with_(v: float, j: int = j, name: str = name) -> float:
                    arr = p[name].copy()
                    arr[j] = v
                    return _loss(d, {**p, name: arr})

                p[name][j] = _search(with_, -1.5, 1.5)
    # put the typical model's level at 1: the efficiencies then read as fractions of peak and bandwidth a typical
    # figure reached (every term of the step scales alike, so the fit is unchanged)
    shift = float(np.median([np.median((d.log_true - _log_rates(d, p))[ix]) for ix in d.by_model]))
    k = math.exp(shift)
    if p["ec_float32"] * k <= 1 and p["ec_mixed"] * k <= 1 and p["em"] * k <= 1:
        p = {**p, "ec_float32": p["ec_float32"] * k, "ec_mixed": p["ec_mixed"] * k, "em": p["em"] * k,
             "overhead": p["overhead"] * math.exp(-shift)}  # fmt: skip
    return p


def _residuals(d: _Data, r_all: np.ndarray, modelled: np.ndarray) -> list[float]:
    """Held-out residuals: each figure estimated as an estimate is made — from the same model's figure (same
    precision class) on a device of its silicon, else the one whose modelled speed is nearest — against the truth."""
    out = []
    for ix in d.by_model:
        for i in ix:
            peers = [j for j in ix if j != i and d.is_mixed[j] == d.is_mixed[i]]
            peers = [j for j in peers if d.sil_of[j] == d.sil_of[i]] or peers  # as an estimate picks its anchor
            if peers:
                j = min(peers, key=lambda j, i=i: abs(modelled[j] - modelled[i]))  # type: ignore[misc]
                out.append(float(r_all[i] - r_all[j]))
    return out


def _dof_scale(d: _Data) -> float:
    """√(m ÷ (m − q)): what a spread of in-sample residuals is scaled by for the q parameters fitted on them (see
    BAND); m − q never below 1."""
    m = len(d.rows) - len(d.models)
    q = SHARED_PARAMETERS + len(d.spoken)
    return math.sqrt(m / max(m - q, 1)) if m > 0 else 1.0


@functools.lru_cache(maxsize=256)
def fit(figures: tuple[Figure, ...]) -> Fit | None:
    """Fit the efficiencies, overhead and levels on `figures` (each a model's middle figure on one device)."""
    d = _data(figures)
    if d is None:
        return None
    p = _optimise(d)
    modelled = _log_rates(d, p)
    r_all = d.log_true - modelled
    levels = {m: float(np.median(r_all[ix])) for m, ix in zip(d.models, d.by_model, strict=True)}
    # a kind's level from models counted as themselves (a stand-in's level is in its source's units)
    stand_in = {g.model: c.stand_in for g, c, _, _ in d.rows}
    own = {m: v for m, v in levels.items() if not stand_in[m]}
    kind_of = {g.model: g.kind for g, *_ in d.rows}
    kinds = sorted({kind_of[m] for m in own})
    kind_levels = {k: _median([v for m, v in own.items() if kind_of[m] == k]) for k in kinds}
    every = _median(list(own.values()))
    spread = tuple(v - kind_levels.get(kind_of[m], every) for m, v in own.items())
    factors = {d.sils[j]: (float(math.exp(p["fc"][j])), float(math.exp(p["fm"][j]))) for j in d.spoken}
    scale, residuals = _dof_scale(d), _residuals(d, r_all, modelled)
    return Fit(
        {"float32": float(p["ec_float32"]), "mixed": float(p["ec_mixed"])}, float(p["em"]), factors,
        float(p["overhead"]), levels, kind_levels | {"": every}, tuple(r * scale for r in residuals), spread,
        len(d.rows), (float(p["bc"]), d.centre[0], float(p["bm"]), d.centre[1]),
    )  # fmt: skip
