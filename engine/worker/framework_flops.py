"""Training FLOPs per example as the framework itself counts them (issue 20), beside the layer-by-layer count
of engine/worker/flops.py, so any model — a user's own, with layers the hand count does not know — gets a
count, and the row says where it came from.

  torch  `torch.utils.flop_counter.FlopCounterMode` around one real training step (forward, backward and the
         optimizer; it counts matrix products and convolutions, the same convention as the hand count). The
         CPU's flash-attention kernels are registered here: torch's own table has only the CUDA ones. Its
         convolution_backward formula charges a grouped (depthwise/separable) convolution as a dense one, so
         a model with one gets no torch count.
  jax    XLA's cost analysis of the lowered gradient computation (`jax.jit(jax.grad(loss)).lower(...)`). It also
         counts element-wise work, and a loop body once: a recurrent layer (a `while` loop) is under-counted,
         so a model with one gets no JAX count.
  tensorflow  the profiler's float-op count of the traced gradient step (a graph before pruning: it also charges
         the input gradient of a layer fed by the raw input, and some element-wise ops).

Each counts a batch of two examples, after the timed run, so the measurement is untouched.
"""

from __future__ import annotations

from typing import Any

import keras

COUNT_BATCH = 2
_RECURRENT = ("LSTM", "GRU", "SimpleRNN", "Bidirectional", "RNN")
_GROUPED = ("DepthwiseConv1D", "DepthwiseConv2D", "SeparableConv1D", "SeparableConv2D")


def _torch_count(model: keras.Model, x: Any, y: Any) -> float | None:
    if any(type(layer).__name__ in _GROUPED for layer in model._flatten_layers()):
        return None  # its convolution_backward formula charges a grouped convolution as dense (64× on Xception's)
    import torch
    from torch.utils import flop_counter as fc

    aten = torch.ops.aten
    cpu_flash = getattr(aten, "_scaled_dot_product_flash_attention_for_cpu", None)
    if cpu_flash is not None and cpu_flash not in fc.flop_registry:

        @fc.register_flop_formula(cpu_flash, get_raw=True)
        def _fwd(query, key, value, *args, out_val=None, **kwargs) -> int:
            return fc.sdpa_flop_count(query.shape, key.shape, value.shape)

        backward = getattr(aten, "_scaled_dot_product_flash_attention_for_cpu_backward", None)
        if backward is not None:

            @fc.register_flop_formula(backward, get_raw=True)
            def _bwd(grad_out, query, key, value, *args, out_val=None, **kwargs) -> int:
                return fc.sdpa_backward_flop_count(grad_out.shape, query.shape, key.shape, value.shape)

    if not model.optimizer.built:  # a first step also builds the optimizer and traces shapes: not counted
        model.train_on_batch(x, y)
    with fc.FlopCounterMode(display=False) as counter:
        model.train_on_batch(x, y)
    return counter.get_total_flops() / COUNT_BATCH


def _jax_count(model: keras.Model, x: Any, y: Any) -> float | None:
    import jax

    if any(type(layer).__name__ in _RECURRENT for layer in model._flatten_layers()):
        return None  # XLA's cost analysis counts a while-loop body once
    loss = model.loss

    def loss_fn(trainable, non_trainable, xb, yb):
        pred, _ = model.stateless_call(trainable, non_trainable, xb, training=True)
        return loss(yb, pred) if callable(loss) else keras.losses.get(loss)(yb, pred)

    trainable = [v.value for v in model.trainable_variables]
    non_trainable = [v.value for v in model.non_trainable_variables]
    analysis = jax.jit(jax.grad(loss_fn)).lower(trainable, non_trainable, x, y).cost_analysis()
    if isinstance(analysis, list):
        analysis = analysis[0] if analysis else {}
    flops = (analysis or {}).get("flops")
    return float(flops) / COUNT_BATCH if flops else None


def _tf_count(model: keras.Model, x: Any, y: Any) -> float:
    import tensorflow as tf
    from tensorflow.python.profiler import model_analyzer, option_builder

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = model.compute_loss(x=xb, y=yb, y_pred=model(xb, training=True))
        return tape.gradient(loss, model.trainable_variables)

    specs = tf.nest.map_structure(lambda a: tf.TensorSpec(a.shape, a.dtype), (x, y))
    graph = step.get_concrete_function(*specs).graph
    options = option_builder.ProfileOptionBuilder.float_operation()
    options["output"] = "none"
    return model_analyzer.profile(graph, options=options).total_float_ops / COUNT_BATCH


SOURCES = {
    "torch": "torch FlopCounterMode",
    "jax": "XLA cost analysis (jax)",
    "tensorflow": "TensorFlow profiler float ops",
}


def count(model: keras.Model, backend: str, x: Any, y: Any) -> tuple[float | None, str]:
    """(training FLOPs per example, source) as `backend` counts them on a 2-example batch (x, y), or
    (None, why not)."""
    if backend not in SOURCES:
        return None, f"{backend}: no framework count here"
    try:
        counters = {"torch": _torch_count, "jax": _jax_count, "tensorflow": _tf_count}
        got = counters[backend](model, x, y)
    except Exception as exc:  # noqa: BLE001 — a count is extra information; the run stands without it
        return None, f"{SOURCES[backend]} failed: {type(exc).__name__}"
    if got is None:
        why = (
            "a recurrent loop is counted once by XLA"
            if backend == "jax"
            else "it counts a grouped convolution's backward as dense"
        )
        return None, f"{SOURCES[backend]}: not counted ({why})"
    return got, SOURCES[backend]


def head(batch: Any, n: int = COUNT_BATCH) -> Any:
    """The first `n` examples of a batch (arrays, or a tuple of arrays for several inputs)."""
    return tuple(a[:n] for a in batch) if isinstance(batch, (tuple, list)) else batch[:n]


def which_count(model: keras.Model, backend: str, batch: tuple[Any, Any], counted: float) -> tuple[float, str]:
    """The FLOP count behind gflops and MFU, and where it came from: the layer count (one convention on every
    backend, so MFU compares across them) with the framework's own count beside it; the framework's where the
    layer count has no rule for a layer with weights (a user's own layer)."""
    from engine.worker.flops import uncounted_layers
    from engine.worker.model_facts import COUNTED_BY_LAYER

    theirs, source = count(model, backend, head(batch[0]), head(batch[1]))
    if theirs is None:
        return counted, f"{COUNTED_BY_LAYER}; {source}"
    missed = uncounted_layers(model)
    if missed:
        return theirs, f"{source} (the layer count has no rule for {', '.join(missed[:3])})"
    ratio = f"{theirs / counted:.0%} of it" if counted else "the layer count found no matrix work"
    return counted, f"{COUNTED_BY_LAYER}; {source}: {ratio}"
