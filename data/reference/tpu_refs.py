"""Per-chip training rates for TPU v3, v4, v5e, v5p and v6e from Google's MLPerf Training result logs (issue 36 item 5).

MLPerf publishes the time to train a whole slice. Each row here is the slice's steady-state rate, derived from the
result logs by the same `modern_refs.derive_mlperf` as the GPU rows (Google's logs time blocks between evaluations,
not epochs: see mlperf_logs.py), divided by the chips the slice used. The chip count is the system description's
own (`Google/systems/<system>.json`: number_of_nodes × accelerators_per_node; a `tpu-v3-32` or `tpu-v4-16` names
TensorCores, two per chip). The row is stated per chip (hardware_count 1, count_unit chip); the label and the notes
keep the chips and the whole-slice rate, so `value × chips` gives the slice back.

Only the smallest slice Google ran per round, chip and benchmark is kept: a chip's rate falls as a slice grows (BERT
on TPU v4 is 137 sequences/s per chip on 8 chips, 13 on 3,456 in v2.0), and the smallest slice is the nearest to
what one rents. `python data/reference/modern_refs.py --mlperf REPO SYSTEM BENCHMARK` recomputes a slice's rate.
"""

from __future__ import annotations

from dataclasses import dataclass

from curation_rules import display_name
from modern_refs import _base, gh

from engine.reference.units import HARDWARE as BY_KEY


@dataclass(frozen=True)
class TpuResult:
    """One Google MLPerf slice: where its logs are, what ran, and derive_mlperf's (median, min, max, runs) for the
    whole slice, in examples/s (images, sequences, tokens or images of the benchmark)."""

    round: str
    repo: str
    commit: str
    year: str
    system: str
    benchmark: str
    hardware_key: str
    chips: int
    framework_label: str
    global_batch: int
    slice_rate: float
    low: float
    high: float
    runs: int


def _r(rnd: str, commit: str, year: str, system: str, bench: str, key: str, chips: int, fw: str, batch: int,
       rate: float, low: float, high: float, runs: int) -> TpuResult:  # fmt: skip
    repo = f"mlcommons/training_results_{rnd}"
    return TpuResult(rnd, repo, commit, year, system, bench, key, chips, fw, batch, rate, low, high, runs)


V06 = "f312518c2d6107eec983750eed23950f1f0c8a0e"
V07 = "0a8a85a209c8e45b661596c382cc20f4e32fd2fe"
V10 = "50619b5df63f1d646715a82c1fb8c35f271e25fa"
V31 = "d06288b2bd675a9d88e0e6181f5bb5626b71ec19"
V41 = "b87b9e396f771345d4ef122ba33456304f15228d"
V50 = "0fdc28f013256aea84fa36fdaf1e0fa46094b18c"

# derive_mlperf(<mirror at the commit>, "Google/results/<system>", <benchmark>), digits as it printed them
TPU_RESULTS = (
    _r("v0.6", V06, "2019", "tpu-v3-32", "resnet", "tpu_v3", 16, "TensorFlow 1.14", 4096,
       31224.94, 31223.80, 31226.84, 5),
    _r("v0.7", V07, "2020", "tpu-v3-32-TF2.0", "resnet", "tpu_v3", 16, "TensorFlow 2.0 (research)", 4096,
       32058.03, 32045.40, 32063.04, 5),
    _r("v0.7", V07, "2020", "tpu-v4-16-TF", "resnet", "tpu_v4", 8, "TensorFlow (research)", 2048,
       27824.54, 27823.48, 27825.14, 5),
    _r("v1.0", V10, "2021", "tpu-v4-128-TF", "resnet", "tpu_v4", 64, "TensorFlow (preview)", 8192,
       220862.30, 220767.25, 221095.79, 5),
    _r("v0.7", V07, "2020", "tpu-v3-32-TF2.0", "bert", "tpu_v3", 16, "TensorFlow 2.0 (research)", 512,
       972.94, 972.74, 973.20, 10),
    _r("v0.7", V07, "2020", "tpu-v4-16-TF", "bert", "tpu_v4", 8, "TensorFlow (research)", 256,
       1097.32, 1097.28, 1097.36, 10),
    _r("v1.0", V10, "2021", "tpu-v4-128-TF", "bert", "tpu_v4", 64, "TensorFlow (preview)", 3072,
       12311.08, 12305.58, 12328.07, 10),
    _r("v3.1", V31, "2023", "cloud-tpu-v5e-4096-PAX", "gpt3", "tpu_v5e", 4096, "PAX (JAX)", 2048,
       461633.30, 461607.90, 461703.17, 3),
    _r("v4.1", V41, "2024", "cloud-tpu-v5p-4096-maxtext", "gpt3", "tpu_v5p", 2048, "MaxText (JAX)", 4096,
       745764.53, 740977.65, 745875.04, 3),
    _r("v4.1", V41, "2024", "cloud-tpu-trillium-512-maxtext", "gpt3", "tpu_v6e", 512, "MaxText (JAX)", 1536,
       198337.25, 197497.51, 198674.68, 3),
    _r("v4.1", V41, "2024", "cloud-tpu-v5p-16-maxdiffusion", "stable_diffusion", "tpu_v5p", 8, "MaxDiffusion (JAX)",
       256, 691.50, 689.19, 692.57, 10),
    _r("v5.0", V50, "2025", "cloud-tpu-trillium-256-maxdiffusion", "stable_diffusion", "tpu_v6e", 256,
       "MaxDiffusion (JAX)", 1024, 11085.91, 9190.70, 11239.28, 10),
)  # fmt: skip

# What each benchmark trains, and how its blocks are counted (mlperf_logs._block_samples)
WORKLOADS = {
    "resnet": ({"model": "resnet50", "model_label": "ResNet-50 v1.5 (MLPerf, LARS)", "dataset": "imagenet",
                "dataset_label": "ImageNet 2012 (train, 1,281,167 images)", "target": "75.9% top-1",
                "metric": "images_per_s"}, "images", "epoch_count epochs × train_samples (1,281,167) images"),
    "bert": ({"model": "bert_large", "shape": "seq 512", "model_label": "BERT-large pre-training (MLPerf BERT, "
              "sequences up to 512 tokens)", "dataset": "wikipedia", "dataset_label": "Wikipedia 2020-01-01 (MLPerf "
              "BERT training set)", "target": "0.712–0.72 masked-LM accuracy", "metric": "examples_per_s"},
             "sequences", "epoch_count training steps × global_batch_size sequences (the log's train_samples is "
             "batch × opt_learning_rate_training_steps)"),
    "gpt3": ({"model": "gpt3_175b", "shape": "seq 2048", "model_label": "GPT-3 175B pre-training (MLPerf, from a "
              "checkpoint)", "dataset": "c4", "dataset_label": "C4 (MLPerf GPT-3)", "target": "2.69 log perplexity",
              "metric": "examples_per_s"}, "tokens", "epoch_count tokens (50,331,648 per block)"),
    "stable_diffusion": ({"model": "stable_diffusion_v2", "model_label": "Stable Diffusion v2 (MLPerf, 512×512 "
                          "latent diffusion)", "dataset": "laion_400m", "dataset_label": "LAION-400M filtered "
                          "(MLPerf SD)", "target": "FID ≤ 90, CLIP ≥ 0.15", "metric": "examples_per_s"},
                         "images", "the block_stop's samples_count less its block_start's"),
}  # fmt: skip

SOURCE_ID = "MLPERF-TPU"
_GPT3 = "Google/benchmarks/gpt3/implementations"
# Slices whose submission trains in int8 (AQT), as its own launch script says; every other slice trains in bf16
INT8 = {
    "cloud-tpu-v5e-4096-PAX": f"int8 (AQT): `EXP_NAME=C4SpmdGpt3AdamDataParallel16x16x16Int8`, `ENABLE_LOCAL_AQT=true` "
    f"in {_GPT3}/PAX/run_and_time.sh (scripts/pod_run.sh sets ENABLE_INT8 for an Int8 experiment)",
    "cloud-tpu-v5p-4096-maxtext": f"int8 (AQT): `quantization=int8` in {_GPT3}/maxtext/cloud-tpu-v5p/v5p-4096.sh",
    "cloud-tpu-trillium-512-maxtext": f"int8 (AQT): `quantization=int8`, `tff_quant=true` in {_GPT3}/maxtext/"
    "cloud-tpu-trillium/trillium-512.sh",
}
# Stable Diffusion's two slices differ 32× in size (v5p: 8 chips, 32 images per chip per step; v6e: 256 chips, 4), so
# their ratio is the slice, not the chip (v6e's chip would read half of v5p's); and AccelBench counts no per-image
# FLOPs for the model, so the step model could not place it either.
SD_DOUBT = (
    "per chip of slices 32× apart in size (v5p 8 chips, v6e 256): the ratio is the slice, not the chip; no per-image "
    "cost for this model in AccelBench, so estimates leave it out"
)


def _digits(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def per_chip(m: TpuResult) -> float:
    """The slice's rate divided by its chips, rounded as the row stores it (3 significant figures at least)."""
    rate = m.slice_rate / m.chips
    return round(rate) if rate >= 100 else round(rate, 1)


def tpu_row(seq: int, m: TpuResult) -> dict[str, str]:
    """One per-chip row for one Google MLPerf slice."""
    fields, unit, blocks = WORKLOADS[m.benchmark]
    path = f"Google/results/{m.system}/{m.benchmark}"
    notes = (
        f"Derived from the :::MLLOG result logs {path}/result_*.txt at {m.repo} commit {m.commit[:12]} ({m.runs} "
        f"runs): per run, {blocks} over each block_start → block_stop time, median over the blocks after the first "
        f"(compilation, warm-up), then the median over runs (modern_refs.derive_mlperf): {_digits(m.slice_rate)} "
        f"{unit}/s for the whole slice (spread {_digits(m.low)}–{_digits(m.high)} over runs) ÷ {m.chips} chips "
        f"(Google/systems/{m.system}.json: nodes × accelerators_per_node) = {per_chip(m):g} {unit}/s per chip. "
        "Blocks include the evaluation at their end, so the rate slightly understates training alone. MLPerf "
        "publishes only the time to train; this rate is AccelBench's computation. Closed division: real data, "
        f"hand-tuned XLA stack, {'int8 matmuls (AQT)' if m.system in INT8 else 'bf16'}; a ceiling for a plain "
        "framework's fit, not a like-for-like figure for it."
    )
    precision = ("int8", INT8[m.system]) if m.system in INT8 else ("mixed_bfloat16", "bf16 (TPU MXU, XLA default "
                                                                    "for training)")  # fmt: skip
    row = _base(
        SOURCE_ID, seq,
        source_title=f"MLPerf Training {m.round} closed division, Google's TPU result logs (per-chip steady-state "
        "rate, derived)", source_url=gh(m.repo, m.commit, path, "tree"), source_kind="benchmark-suite", year=m.year,
        hardware_label=f"{BY_KEY[m.hardware_key].short}: Google '{m.system}' ({m.chips} chips), per chip",
        hardware_key=m.hardware_key, hardware_count="1", framework="tensorflow" if "TensorFlow" in m.framework_label
        else "", framework_label=m.framework_label, data_kind="real", batch_size=str(m.global_batch),
        batch_scope="global", batch_label=f"{m.global_batch} (the slice's global batch)",
        precision=precision[0], precision_label=precision[1], xla="True",
        value=f"{per_chip(m):g}", value_kind="derived", notes=notes, **fields,
    )  # fmt: skip
    row |= {"device_type": "tpu", "count_unit": "chip"}
    if m.benchmark == "stable_diffusion":  # kept for reference, out of estimates (doubtful rows feed none)
        row |= {"doubtful": "True", "doubt_reason": SD_DOUBT}
    row["hardware"] = display_name(row)
    return row


def tpu_rows() -> list[dict[str, str]]:
    """Every TPU row, in TPU_RESULTS's order (ref_ids MLPERF-TPU-01 …)."""
    return [tpu_row(i, m) for i, m in enumerate(TPU_RESULTS, start=1)]
