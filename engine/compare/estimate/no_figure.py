"""A model with no figure anywhere: its modelled rate at the run's batch × the level of its kind (rough).

The modelled step holds the fit's per-step overhead (step_fit.Fit.overhead_s: launches, the optimizer, the return
to Python) at the run's per-device batch, as every figure the fit saw held it: a small model at a small batch is
overhead-bound, and a roofline alone predicts it several times too fast (issue 42 item 5, the chronological check:
reuters_conv1d 8.3× on an H100 before). A stand-in model (another model's op mix and size; its source may count
examples in other units: WaveGlow's audio samples, GNMT's tokens) has no estimate without a figure of its own: its
level is unknowable, and the kind's was 10–300× off (WaveGlow, GNMT and Tacotron 2 on H100/H200/B200, same check).
"""

from __future__ import annotations

import math

from engine.compare.estimate import step_fit, step_model


def level_rate(
    cost: step_model.Cost, fit: step_fit.Fit, target: str, pc: str, kind: str, batch: float | None
) -> tuple[float, float, float, float] | None:
    """(examples/s, range factor below, range factor above, the kind's level) of a model with no figure on `target`
    at per-device `batch` (None: not known, no overhead); None for a stand-in model or a device the model can't speak for."""
    if cost.stand_in:
        return None
    e_c, e_m = fit.efficiencies(target, pc)
    t = step_model.step_seconds(cost, target, pc, e_c, e_m, fit.overhead_s, batch)
    if not t:
        return None
    level = fit.kind_levels.get(kind, fit.kind_levels[""])
    down, up = step_fit.band([r + s for r in fit.residuals for s in fit.level_spread] or list(fit.level_spread))
    return math.exp(level) / t, down, up, level
