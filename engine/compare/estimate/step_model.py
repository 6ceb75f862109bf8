"""A training step's time on a device from its ops' FLOPs and bytes: the memory-aware model behind estimates.

One training example of a model costs, per intensity bin b of its convolutions and dots (engine.compare.
model_costs, from XLA) and for the memory-bound rest (element-wise ops, normalisation, the optimizer):

    t = Σ_b max(FLOPs_b ÷ (peak × e_c), bytes_b ÷ (bandwidth × e_m)) + bytes_rest ÷ (bandwidth × e_m) + overhead ÷ batch

A memory-bound model follows the bandwidth, not the FLOP/s: an L40S has 1.16× an A100's half-precision FLOP/s
and 0.56× its bandwidth, an H200 the H100's FLOP/s and 1.43× its bandwidth (a B200 has both ratios near 2.3× an
H100's, so there the two agree). Bytes are halved for a mixed-precision figure (16-bit activations and matmul
operands).

The efficiencies are fitted on the measured and published figures (engine.compare.estimate.step_fit).
"""

from __future__ import annotations

from engine.compare.facts.cost import (  # noqa: F401 (the step model's formula lives with the cost facts)
    KIND_PROXY,
    MIXED_BYTES,
    Cost,
    bound_share,
    byte_text,
    cost_of,
    pct,
    sig,
    step_seconds,
)
