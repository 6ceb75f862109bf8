"""Fast and still right (as TorchBench's accuracy check): a compiled or mixed-precision run's first step is
compared with an eager float32 step of the same initial weights on the same batch.

Both sides run one forward and backward from a copy of the weights the timed run started with: the loss,
the outputs and the gradient norm must agree within a tolerance suited to the precision (relative errors;
bf16 keeps ~3 significant digits, fp16 ~4, float32 differs only by reordered sums). Dropout is switched off
on both sides (its random masks would differ between eager and compiled code whatever the maths); BatchNorm
keeps its training behaviour. The check runs after the timed steps, so it changes no timing column.
ACCELBENCH_TEST_PERTURB_CHECK=F (tests only) scales the checked path's outputs by 1 + F: a path that
changes the maths must be reported as not matching.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass

import torch
from torch import nn

from engine.worker.torch_native.step import AMP_DTYPES, compiled, loss_of

TOLERANCE = {"float32": 1e-3, "mixed_float16": 1e-2, "mixed_bfloat16": 5e-2}
PERTURB_ENV = "ACCELBENCH_TEST_PERTURB_CHECK"


@dataclass(frozen=True)
class CheckResult:
    """The check's answer.

    Attributes:
      matched: every relative error within the tolerance.
      loss_rel, outputs_rel, grad_norm_rel: the relative errors of the loss, the outputs (L2) and the
        gradient norm against eager float32.
      tolerance: the bound for this precision.
      what: the checked path in words ("torch.compile, mixed_bfloat16").
    """

    matched: bool
    loss_rel: float
    outputs_rel: float
    grad_norm_rel: float
    tolerance: float
    what: str

    def note(self) -> str:
        verdict = "matched" if self.matched else "DID NOT MATCH"
        return (
            f"correctness vs eager float32 on one batch ({self.what}): {verdict} — loss rel. err "
            f"{self.loss_rel:.1e}, outputs {self.outputs_rel:.1e}, grad norm {self.grad_norm_rel:.1e}, "
            f"tolerance {self.tolerance:.0e} (dropout off on both sides)"
        )


def needed(precision: str, compile_on: bool) -> bool:
    """Eager float32 is the reference itself: nothing to check."""
    return compile_on or precision != "float32"


def _no_dropout(module: nn.Module) -> nn.Module:
    module.train()
    for m in module.modules():
        if isinstance(m, nn.modules.dropout._DropoutNd):
            m.eval()
    return module


def _one_step(model, module: nn.Module, x, y, device: torch.device, amp_dtype, scale: float = 1.0):
    with torch.autocast(device.type, dtype=amp_dtype or torch.float32, enabled=amp_dtype is not None):
        out = model(x)
    out = out.float() * scale
    loss = loss_of(out, y)
    loss.backward()
    grads = [p.grad.float().norm() for p in module.parameters() if p.grad is not None]
    return float(loss), out.detach(), float(torch.stack(grads).norm()) if grads else 0.0


def _rel(a: float | torch.Tensor, b: float | torch.Tensor) -> float:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return float((a - b).norm() / b.norm().clamp_min(1e-12))
    return abs(float(a) - float(b)) / max(abs(float(b)), 1e-12)


def check(
    initial: nn.Module, x: torch.Tensor, y: torch.Tensor, precision: str, compile_on: bool, channels_last: bool
) -> CheckResult:
    """`initial`: an eager float32 copy of the module as the timed run began (it is not changed)."""
    device = x.device
    reference = _no_dropout(copy.deepcopy(initial))
    ref_loss, ref_out, ref_grad = _one_step(reference, reference, x.contiguous(), y, device, None)
    checked = _no_dropout(copy.deepcopy(initial))
    if channels_last:
        checked = checked.to(memory_format=torch.channels_last)  # type: ignore[call-overload]  # real kwarg, not in the stubs
    model, _ = compiled(checked, compile_on)
    scale = 1.0 + float(os.environ.get(PERTURB_ENV) or 0.0)
    loss, out, grad = _one_step(model, checked, x, y, device, AMP_DTYPES[precision], scale)
    tol = TOLERANCE[precision]
    errs = (_rel(loss, ref_loss), _rel(out, ref_out), _rel(grad, ref_grad))
    what = ", ".join(p for p in ("torch.compile" if compile_on else "eager", precision) if p)
    return CheckResult(all(e <= tol for e in errs), *errs, tol, what)
