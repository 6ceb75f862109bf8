"""Input-bound or compute-bound: the one rule that labels a run from its three rates and its input wait (issue 38).

A run on real data measures its pipeline alone (`input_examples_per_sec`), its model alone on a batch already
on the device (`step_examples_per_sec`), the training rate, and the share of each training step spent waiting
for the next batch (`input_wait_pct`). The rule reads the two "alone" rates first, because they say what
each side could do without the other; the measured wait then catches a pipeline that is fast alone but
starves the step once both share the host's cores. A synthetic run has no pipeline: "compute".
"""

from __future__ import annotations

BOUNDS = ("input", "compute", "balanced")

# The pipeline alone below 0.9× the step alone cannot keep the device busy; above 1.1× it can with room.
INPUT_RATIO_BELOW = 0.9
COMPUTE_RATIO_ABOVE = 1.1
# Waiting for a batch ≥ 25% of a step is input-bound whatever the rates alone say; < 10% is no waiting to speak of.
INPUT_WAIT_PCT_AT_LEAST = 25.0
COMPUTE_WAIT_PCT_BELOW = 10.0

BOUND_RULE_TEXT = (  # built from the thresholds, so the words can never say another number than the rule uses
    f"bound: 'input' when the pipeline alone delivers under {INPUT_RATIO_BELOW:g}x the step alone's examples/s, or "
    f"the device waited for its batch {INPUT_WAIT_PCT_AT_LEAST:g}% or more of each training step; 'compute' when "
    f"the pipeline alone delivers over {COMPUTE_RATIO_ABOVE:g}x the step alone and the wait is under "
    f"{COMPUTE_WAIT_PCT_BELOW:g}%; 'balanced' otherwise. Synthetic data: 'compute'."
)


def classify_bound(
    train_eps: float | None,
    input_eps: float | None,
    step_eps: float | None,
    input_wait_pct: float | None,
) -> str:
    """"input", "compute" or "balanced" by BOUND_RULE_TEXT. `input_eps` None means synthetic data.

    Where the step alone was not measured, the training rate stands in for it (a run that trains as fast
    as its pipeline alone delivers is held back by that pipeline, not by its step).
    """
    if input_eps is None:
        return "compute"
    if input_wait_pct is not None and input_wait_pct >= INPUT_WAIT_PCT_AT_LEAST:
        return "input"
    reference_eps = step_eps if step_eps else train_eps
    if not reference_eps or input_eps <= 0:
        return "input" if input_eps <= 0 else "balanced"
    ratio = input_eps / reference_eps
    if ratio < INPUT_RATIO_BELOW:
        return "input"
    waited_little = input_wait_pct is None or input_wait_pct < COMPUTE_WAIT_PCT_BELOW
    if ratio > COMPUTE_RATIO_ABOVE and waited_little:
        return "compute"
    return "balanced"


def wait_pct(wait_s: float, step_total_s: float) -> float:
    """The share of training steps spent waiting for batches, in %: the time inside next(iterator) over
    the whole step (wait + compute, device synced), both summed over the same steady steps."""
    if step_total_s <= 0:
        return 0.0
    return max(0.0, min(100.0, 100.0 * wait_s / step_total_s))
