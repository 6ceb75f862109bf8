"""The rows of the "Which device?" table (engine.compare.which builds them, engine.compare.words.which_text words them)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Work:
    """The user's own training work: examples per epoch × epochs (either None when the run does not say)."""

    examples_per_epoch: float | None
    epochs: float | None

    @property
    def examples(self) -> float | None:
        if self.examples_per_epoch is None:
            return None
        return self.examples_per_epoch * (self.epochs or 1)

    @property
    def text(self) -> str:
        """'2 epochs of 96 examples', '1 epoch of 60,000 examples', 'per epoch of 96 examples' or ''."""
        if self.examples_per_epoch is None:
            return ""
        of = f"{self.examples_per_epoch:,.0f} examples"
        if self.epochs is None:
            return f"per epoch of {of}"
        return f"{self.epochs:g} epoch{'s' if self.epochs != 1 else ''} of {of}"


@dataclass(frozen=True)
class DeviceRow:
    """One device of the table.

    Attributes:
      hardware_key, device: the hardware table's key and its display name.
      label: the answer row it came from (says basis, precision, source).
      rate_one_device: examples/s of one device (a system's per-device share where the source ran several).
      basis: measured / published / estimate (or any other word a newer source uses, as it is).
      bound: "exact", "about", "at most" (held at the step floor: a ceiling) or "at least".
      low, high: the rate's range (examples/s of one device) — an estimate's spread; None for a figure.
      speedup, speedup_low, speedup_high: one device ÷ the user's run (with the range's ends).
      epoch_time_s: the user's epochs (Work) on this device; epoch_time_low_s/high_s from the range.
      usd_per_million_examples, usd_per_hour: at the price used; price: that price and where it is from.
      price_whose: "yours", "price table" or "" (no price known).
      how: how the rate was found (the answer row's how).
      setting: the precision and software stack the figure ran with ("mixed fp16 · PyTorch"), so rows of
        other settings are never read as like for like.
    """

    hardware_key: str
    device: str
    label: str
    rate_one_device: float
    basis: str
    bound: str
    low: float | None
    high: float | None
    speedup: float
    speedup_low: float
    speedup_high: float
    epoch_time_s: float | None
    epoch_time_low_s: float | None
    epoch_time_high_s: float | None
    usd_per_million_examples: float | None
    usd_per_hour: float | None
    price: str
    price_whose: str
    how: str
    device_type: str = "gpu"
    setting: str = ""
    method: str = ""  # an estimate's method (engine.compare.estimate.estimate), for the screen's note on how good it is
    beyond: float = 0.0  # new silicon: log distance of its peak or bandwidth past every fitted chip (a launch's case)
    law_beyond: float = 0.0  # a TPU-law row: log distance past every chip pair its α came from (tpu_family.law_beyond)
    # one scale (engine.compare.scale.one_scale): this row = the anchor row's rate × ratio (None for a measured anchor)
    anchor: str | None = None
    ratio: float | None = None
    ratio_source: str = ""
    precision: str = ""  # the precision the rate is at ('mixed bf16'); precision_note: how it was reached
    precision_note: str = ""
    per: str = "gpu"  # "gpu" or "chip": what one device of rate_one_device is
    devices_per_rental: float = 1.0  # what one rents: 1 GPU, a v2-8 = 4 chips, a v5e-1 = 1 chip
    flag: str = ""  # a pipeline-bound source's figure says why (engine.compare.scale.one_scale.saturated)
    beside_why: str = ""  # a figure listed beside the ranking, not in it: why (another stack, precision, …)
    fed: str = ""  # a published figure's input: real data through a pipeline, synthetic, or not stated (issue 38/5)
    input_cap: Any = None  # engine.compare.words.input_cap.HostCap: this run's pipeline on the device's host (issue 38)
    anchor_model: str = ""  # a converted anchor (engine.compare.scale.converted): the model measured on `anchor`
    conversion: str = ""  # its conversion's class (engine.compare.scale.conversion_check: near, from_larger, …)
    error_case: str = ""  # an estimate's case and its checked error (engine.compare.estimate.error_case)
    is_estimate: bool = field(init=False, compare=False, repr=False)  # basis "estimate"

    @property
    def price_short(self) -> str:
        """'$6.88/h, price table', '$2/h, yours' (per one device) or 'no price'."""
        if self.usd_per_hour is None:
            return "no price"
        return f"${self.usd_per_hour:.3g}/h, {self.price_whose}"

    def __post_init__(self) -> None:  # read once when the row is made (replace remakes it)
        object.__setattr__(self, "is_estimate", self.basis == "estimate")

    @property
    def has_range(self) -> bool:
        return self.low is not None and self.high is not None and not math.isclose(self.low, self.high)


@dataclass(frozen=True)
class WhichDevice:
    """The table for one run: its own rate (the baseline), the work its epochs are, and every device row."""

    run_id: str
    workload: str
    unit: str
    baseline_label: str
    baseline_rate: float
    work: Work
    rows: tuple[DeviceRow, ...]
    left_out: tuple[str, ...] = ()
    baseline_setting: str = ""
    beside: tuple[DeviceRow, ...] = ()  # figures of other stacks or precisions, shown beside, never ranked
    scale_note: str = ""  # the one line saying which scale every ranked row is on

    @property
    def baseline_epoch_time_s(self) -> float | None:
        ex = self.work.examples
        return ex / self.baseline_rate if ex and self.baseline_rate > 0 else None
