"""Counted training FLOPs per example of the model zoo, as constants the compare side can read.

engine.compare may not import Keras or the worker, so the counts were taken once, with the worker's own
counter (engine/worker/flops.py: 2 FLOPs per multiply-accumulate of conv, dense and recurrent layers,
training = 3 × forward), on each catalog model built at its native dataset's input shape — the shape the
reference rows of that model use (resnet50 and inceptionv3 at 224×224×3, the flowers models at 192×192×3):

    KERAS_BACKEND=tensorflow python -c "
    from engine.catalog import catalog; from engine.worker import flops, models
    for m in catalog.MODEL_NAMES:
        d = catalog.DATASETS[catalog.MODELS[m].native_dataset]
        print(m, d.input_shape, flops.train_flops(models.build_model(m, d.input_shape, d.num_classes)))"

Counted 2026-11-25 with Keras 3.15.1, after the counter stopped charging an input gradient to a layer fed by
the raw input (what frameworks' own counters do). resnet50's forward count (7,715.9 MFLOP) is the one the H100 GPU check printed in
its notes. A model not listed here (a user's own) passes its count to the estimate explicitly.
"""

from __future__ import annotations

# model → (input shape the count is for, training FLOPs per example)
TRAIN_FLOPS: dict[str, tuple[tuple[int, ...], float]] = {
    "fashion_cnn": ((28, 28, 1), 492_770_304),
    "tiny_cnn": ((28, 28, 1), 2_206_464),
    "flowers_cnn": ((192, 192, 3), 2_766_517_146),
    "vgg19": ((192, 192, 3), 86_422_708_224),
    "xception": ((192, 192, 3), 20_014_813_440),
    "resnet152v2": ((192, 192, 3), 47_896_129_536),
    "resnet50": ((224, 224, 3), 22_911_811_584),
    "inceptionv3": ((224, 224, 3), 17_006_236_032),
    "reuters_conv1d": ((300,), 10_005_120),
    "bilstm": ((300,), 16_986_955_776),
    # per sequence (context 1024 / 128 tokens); counted 2026-11-25, self-attention and the tied LM head included
    "gpt2_small": ((1024,), 874_944_921_600),
    "gpt_tiny": ((128,), 452_984_832),
    "bert_base": ((128,), 67_045_303_296),
    "bert_tiny": ((128,), 352_421_376),
    # published-only (Google's MLPerf TPU logs, data/reference/tpu_refs.py), whose rows count tokens: per TOKEN at
    # context 2048, not counted here but the MFU convention's 6·N + 12·layers·d·T (N 174.6e9, 96 layers, d 12288)
    "gpt3_175b": ((2048,), 1_076_591_029_248),
    # MLPerf's Llama-2-70B LoRA fine-tuning (data/reference/cross_vendor_refs.py), whose rows count sequences of 8,192
    # tokens: the frozen weights' forward and activation gradients, 4·N·T (N 69.0e9), plus causal attention's score
    # and mix, fwd + bwd, 3 · 2·L·d·T² (80 layers, d 8192); the adapters' own FLOPs are under 1 % and left out
    "llama2_70b": ((8192,), 2_531_000_000_000_000),
    # MosaicML's MPT-7B on MI250 and A100/H100 (data/reference/mosaic_refs.py), whose rows count tokens: per TOKEN at
    # context 2048, LLM Foundry's MFU convention 6·N + 12·layers·d·T (N 6,658,859,008, 32 layers, d 4096), the count
    # its benchmark tables' "Model TFLOP" column and the MI250 post's TFLOP/s use
    "mpt_7b": ((2048,), 43_174_379_520),
}


def train_flops_per_example(model: str) -> float | None:
    """Counted training FLOPs for one example of a zoo model at its native shape; None for other models.

    A sequence model at another stated length (`bert_base@384`, engine.compare.facts.workload.shaped_model) is scaled
    by its tokens: the weights' FLOPs grow with the length, attention's score and mix grow with its square and
    are left out of the scaling (2·T·d against 12·d² per token and layer: under 12 % for BERT-base up to 512).
    """
    name, _, seq = model.partition("@")
    got = TRAIN_FLOPS.get(name)
    if got is None or (seq and (len(got[0]) != 1 or not seq.isdigit())):
        return None
    return float(got[1]) * (int(seq) / got[0][0] if seq else 1.0)
