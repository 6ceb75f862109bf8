"""A second AMD silicon beside NVIDIA's on one stack (issue 42 item 5): MosaicML/Databricks trained MPT-7B with ONE
training stack (LLM Foundry, Composer, PyTorch FSDP, 16-bit) on AMD Instinct MI250 (CDNA 2) and on NVIDIA A100 40GB
and 80GB, the GPUs its MI250 posts compare with, and published the per-GPU throughput of each, so the MI250's stack factor (what share of its silicon's modelled
speed ROCm reached beside CUDA) can be learned the way MLPerf's MI300X/MI325X (CDNA 3) pairs teach theirs
(engine.compare.estimate.stack_factor), and each AMD silicon's factor checked on the other's pairs.

- MI250: "Training LLMs at Scale with AMD MI250 GPUs" (Databricks, 2023-10-30): MPT-7B at 166 TFLOP/s per GPU on one
  node of 4× MI250 (ROCm 5.7 + FlashAttention-2; 1.13× the June 2023 post's ROCm 5.4 figures), 159 on 32 nodes.
  A "GPU" there is one MI250 OAM package (two GCDs): the cluster's nodes hold "4 x AMD Instinct MI250 GPUs", and
  166 TFLOP/s is 46 % of a package's 362.1 bf16 peak (92 % of one GCD's, which no LLM training reaches). The
  hardware table counts the MI250 per package too. The TFLOP/s are LLM Foundry's model FLOPs (its benchmarking
  README: 6·N + 12·layers·d·T per token with attention), so ÷ MPT-7B's FLOPs per token gives tokens/s.
- A100 40GB, A100 80GB: LLM Foundry's own benchmark tables (scripts/train/benchmarking/README.md) at the commit of
  2023-10-19, the last before the MI250 post: MPT-7B at 2,048 tokens on 8 GPUs, tokens/s per GPU as published. The
  table's H100 row is not taken: the MI250 posts compare with the A100s only (an H100 MPT-7B row, 46 % MFU against
  the A100 80GB's 64 %, also pulled the step model's fit: leave-silicon-out 14.0 → 16.4 % with it).

The June 2023 post ("Training LLMs with AMD MI250 GPUs and MosaicML") gives only ratios in its text (MI250 "within
80% of the A100-40GB and within 73% of the A100-80GB" per GPU, MPT-1B to 13B); its per-model figures are charts,
so no row is made from it. A stack factor moves with the stack's version: ROCm 5.7 in 2023 is not ROCm 6.4 of
MLPerf v5.0 (2025), which each row's notes say.
"""

from __future__ import annotations

from dataclasses import dataclass

from curation_rules import display_name
from modern_refs import _base, gh

from engine.reference.units import HARDWARE as BY_KEY

SOURCE_ID = "MOSAICML-XV"
TITLE = ("MosaicML LLM Foundry 2023: MPT-7B training on AMD MI250 and NVIDIA A100 with one stack (per-GPU "
         "throughput as MosaicML/Databricks published it)")  # fmt: skip
FOUNDRY = "mosaicml/llm-foundry"
FOUNDRY_COMMIT = "b2a43a1477a45f40f4086a1c72f851b0ab42d0ac"  # "Update_pretrain_benchmarks (#543)", 2023-10-19
TABLE = "scripts/train/benchmarking/README.md"
MI250_POST = "https://www.databricks.com/blog/training-llms-scale-amd-mi250-gpus"
# MPT-7B at 2,048 tokens (LLM Foundry's MFU convention, the README's "MFU and HFU"): 6·N + 12·layers·d·T per token
MPT7B_PARAMS, MPT7B_LAYERS, MPT7B_D, SEQ = 6_658_859_008, 32, 4096, 2048
FLOPS_PER_TOKEN = 6 * MPT7B_PARAMS + 12 * MPT7B_LAYERS * MPT7B_D * SEQ  # 43,174,379,520
VERSION_CAVEAT = (
    "A stack factor learned here is ROCm 5.7's of 2023 (MI250), not ROCm 6.4's of MLPerf v5.0 (2025, MI300X/MI325X): "
    "it moves with the stack's version."
)


@dataclass(frozen=True)
class MptResult:
    """One published MPT-7B figure: the GPU, how many ran it, the stack and precision as stated, tokens/s per GPU
    (published or derived from TFLOP/s), where it is, and what the notes must add."""

    hardware_key: str
    gpus: int
    who: str
    framework_label: str
    precision_label: str
    tokens_per_gpu: float
    value_kind: str
    url: str
    notes: str
    global_batch: str = ""  # in tokens (one example = one token), as the table's GlobalBatchSize (T) states it


def per_gpu_of_tflops(tflops_per_gpu: float) -> float:
    """LLM Foundry's model TFLOP/s per GPU as MPT-7B tokens/s per GPU, to the whole token."""
    return float(round(tflops_per_gpu * 1e12 / FLOPS_PER_TOKEN))


def _table_note(section: str, line: str) -> str:
    return (
        f"{TABLE} at {FOUNDRY} commit {FOUNDRY_COMMIT[:12]}, section '{section}', row `{line}` (Model | SeqLen | "
        "# GPUs | GPU | MFU | HFU | Model TFLOP | MicroBatchSize | GradAccum | GlobalBatchSize | S/s | T/s | T/s/GPU "
        "| GlobalBatchSize (T) | Precision | MP Mode | Sharding | Activation Checkpointing | CPUOffload | NumParams): "
        "the T/s/GPU column. The benchmark runs a few steps of LLM Foundry's C4 loader (submit_benchmarks.py)."
    )


_FOUNDRY_CUDA = "LLM Foundry / Composer on PyTorch, CUDA (MosaicML platform), FSDP FULL_SHARD"
_MI250_TFLOPS = 166.0
MPT_RESULTS = (
    MptResult(
        "mi250", 4, "MosaicML/Databricks, one AMD Accelerator Cloud node of 4× MI250",
        "LLM Foundry / Composer on PyTorch, ROCm 5.7 + FlashAttention-2 (AMD)",
        "16-bit (the June 2023 post: 'we always use 16-bit precision'; LLM Foundry's MPT configs train amp_bf16)",
        per_gpu_of_tflops(_MI250_TFLOPS), "derived", MI250_POST,
        f"The post: 'strong scaling from {_MI250_TFLOPS:g} TFLOP/s/GPU at one node (4xMI250) to 159 TFLOP/s/GPU at "
        "32 nodes (128xMI250)' (MPT-7B, its Figure 1); ROCm 5.7 + FlashAttention-2 gave '1.13x higher training "
        "performance' than the June 2023 post's ROCm 5.4. A GPU is one MI250 OAM package (two GCDs; 4 per node), as "
        f"the hardware table counts it: {_MI250_TFLOPS:g} TFLOP/s is 46 % of its 362.1 bf16 peak. Tokens/s = "
        f"{_MI250_TFLOPS:g}e12 ÷ {FLOPS_PER_TOKEN:,} FLOP per token (MPT-7B at {SEQ:,} tokens, LLM Foundry's MFU "
        f"convention 6·N + 12·layers·d·T, N {MPT7B_PARAMS:,}, {MPT7B_LAYERS} layers, d {MPT7B_D}; the same count "
        f"gives the README's 200 TFLOP/s for the A100 80GB's 4,641 tokens/s) = {per_gpu_of_tflops(_MI250_TFLOPS):,.0f}"
        " tokens/s per MI250.",
    ),
    MptResult(
        "a100", 8, "MosaicML LLM Foundry benchmark table, 8× A100 40GB", _FOUNDRY_CUDA,
        "bf16, MP mode PURE (the table's Precision and MP Mode columns)", 3679.0, "exact", gh(FOUNDRY, FOUNDRY_COMMIT,
        TABLE), _table_note("A100 40GB with 1600 Gbps node-node interconnect (RoCE)", "7b | 2048 | 8 | a100_40gb | "
        "50.92 | 67.89 | 158 | 12 | 4 | 384 | 14 | 29436 | 3679 | 786432 | bf16 | PURE | FULL_SHARD | True | False | "
        "6658859008") + " Activation checkpointing on (HFU 67.89 % against MFU 50.92 %).", "786432",
    ),
    MptResult(
        "a100_80gb", 8, "MosaicML LLM Foundry benchmark table, 8× A100 80GB", _FOUNDRY_CUDA,
        "amp_bf16 (the table's Precision column)", 4641.0, "exact", gh(FOUNDRY, FOUNDRY_COMMIT, TABLE),
        _table_note("A100 80GB with 1600 Gbps node-node interconnect (RoCE)", "7b | 2048 | 8 | a100_80gb | 64.23 | "
        "64.23 | 200 | 6 | 2 | 96 | 18 | 37130 | 4641 | 196608 | amp_bf16 | DEFAULT | FULL_SHARD | False | False | "
        "6658859008") + " Its own hardware key: the 80GB part's bandwidth (2,039 GB/s), not the 40GB's.", "196608",
    ),
)  # fmt: skip


def mpt_row(seq: int, m: MptResult) -> dict[str, str]:
    """One per-GPU MPT-7B row."""
    mi250 = m.url == MI250_POST
    unit = "TFLOP/s per GPU (model FLOPs), here ÷ FLOPs per token" if mi250 else "tokens/s per GPU (T/s/GPU)"
    notes = f"{m.notes} {VERSION_CAVEAT}" if mi250 else m.notes
    row = _base(
        SOURCE_ID, seq, source_title=TITLE, source_url=m.url, source_kind="blog" if mi250 else "benchmark-suite",
        year="2023", hardware_label=f"{BY_KEY[m.hardware_key].short}: {m.who} ({m.gpus} GPUs), per GPU", hardware_key=m.hardware_key, hardware_count="1", framework="pytorch",
        framework_label=m.framework_label, model="mpt_7b", model_label="MPT-7B pre-training (LLM Foundry, 2,048 "
        "tokens a sequence); one example = one token", params=str(MPT7B_PARAMS), dataset="c4" if m.global_batch else
        "", dataset_label="C4 (LLM Foundry's streaming loader)" if m.global_batch else "",
        data_kind="real" if m.global_batch else "unknown", batch_size=m.global_batch,
        batch_scope="global" if m.global_batch else "", batch_label=f"{int(m.global_batch):,} tokens ({int(m.global_batch) // SEQ} "
        "sequences; the table's GlobalBatchSize (T), one example = one token)" if m.global_batch else "", shape=f"seq {SEQ}", precision="mixed_bfloat16",
        precision_label=m.precision_label, metric="examples_per_s", value=f"{m.tokens_per_gpu:g}",
        value_kind=m.value_kind, notes=f"{notes} [published unit: {unit}]",
    )  # fmt: skip
    short = BY_KEY[m.hardware_key].short  # "A100 80GB" names its memory already (display_name would add it again)
    row["hardware"] = short if short.endswith("GB") else display_name(row)
    return row


def mpt_rows() -> list[dict[str, str]]:
    """Every MPT-7B row, in MPT_RESULTS's order (ref_ids MOSAICML-XV-01 …)."""
    return [mpt_row(i, m) for i, m in enumerate(MPT_RESULTS, start=1)]
