"""Read the user's model before a run starts: `python -m engine.worker.inspect_model SPEC_JSON`.

Prints one JSON object: {"ok": true, "name", "params", "train_flops_per_example", "inputs", "outputs",
"tokens_per_example"} or {"ok": false, "error": one line}. The CLI and the Run page call it in a subprocess
(engine.runs.model_check) so a refused file (safe mode), a bad function or an unfed input is reported before
a worker starts, and the dashboard process never imports a framework.
"""

from __future__ import annotations

import json
import os
import sys


def inspect(raw: dict) -> dict:
    from engine.catalog.specs import validate_train
    from engine.worker import backends

    spec = validate_train(raw)
    backends.prepare_process(spec.backend, "cpu")  # reading a model needs no accelerator
    if spec.backend == "torch":  # native PyTorch: a torch.nn.Module, read without Keras
        from engine.worker.torch_native import user_fn

        return user_fn.inspect(spec)
    from engine.worker import flops, user_model

    try:
        user = user_model.load(spec)
        user_model.batch_for(user, spec, 0)  # the data it would be fed: a bad .npz fails here
    except user_model.UserModelError as exc:
        return {"ok": False, "error": str(exc)}
    model = user.model
    return {
        "ok": True,
        "name": user.name,
        "params": int(model.count_params()),
        "train_flops_per_example": flops.train_flops(model),
        "inputs": [[str(t.name), list(tuple(t.shape)[1:]), str(t.dtype)] for t in model.inputs],
        "outputs": [list(tuple(t.shape)[1:]) for t in model.outputs],
        "tokens_per_example": user.tokens_per_example,
        "source": user.source,
        "digest": user.digest,
        "model_kind": user_model.facts(user)["model_kind"],
    }


def main() -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    raw = json.loads(sys.argv[1])
    try:
        out = inspect(raw)
    except Exception as exc:  # noqa: BLE001 — whatever the user's code raised, as one line for the caller
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        out = {"ok": False, "error": f"{type(exc).__name__}: {text}"}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
