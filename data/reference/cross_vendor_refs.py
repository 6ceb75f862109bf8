"""Per-GPU training rates where one MLPerf Training round (closed division) ran the same benchmark on AMD and NVIDIA
GPUs, or on Google TPUs and NVIDIA GPUs (issue 36 items 5–6): the same-round, cross-vendor pairs from which a "stack
factor" (what share of its peak each vendor's software reaches) can be learned. Round v0.7 (2020) is the one where
NVIDIA's 8-GPU DGX systems (V100, A100) and Google's small TPU v3/v4 slices ran the same ResNet-50 and BERT: the
pairs that let Google's factor rest on more than int8 GPT-3.

Made exactly as tpu_refs.py's rows: each system's steady-state rate is `modern_refs.derive_mlperf` over its result
logs (`<submitter>/results/<system>/<benchmark>/result_*.txt`) in a mirror of mlcommons/training_results_<round> at the
commit named, divided by the GPUs its system description states (`<submitter>/systems/<system>.json`:
number_of_nodes × accelerators_per_node). Each row is per GPU (hardware_count 1); label and notes keep the whole
system's rate, so `value × chips` gives it back. Precision is the submission's own: the config its implementation
folder holds (every Llama-2-70B LoRA system here, AMD's and NVIDIA's alike, sets `FP8=True`; NVIDIA's GPT-3 configs
source `config_fp8.sh`; NVIDIA's and Google's Stable Diffusion NeMo configs say `precision: 16`).

Which systems: only 8-GPU (one-node) systems, the smallest any submitter ran, since a GPU's rate falls as a system
grows; one per submitter and chip (where a submitter ran several same-size systems, the one its implementation folder
has a config named for, else the first listed). Exceptions, said in their notes: MLPerf v5.0's only H100 Llama-2 LoRA
system is SCITIX's 64 GPUs; NVIDIA's smallest v4.1 GPT-3 systems are 256 H100 and 64 B200 (Google's TPU slices
there are 512 and 2,048 chips). Hardware without an AccelBench key (GB200, H200 NVL, RTX cards) is left out, as is
anything of round v5.1 or later (a hold-out).

    python data/reference/modern_refs.py --mlperf REPO <submitter>/results/<system> BENCHMARK  # re-derives a rate
"""

from __future__ import annotations

from dataclasses import dataclass

from curation_rules import display_name
from modern_refs import _base, gh
from tpu_refs import WORKLOADS as TPU_WORKLOADS

from engine.reference.units import HARDWARE as BY_KEY

SOURCE_ID = "MLPERF-XV"
V07 = "0a8a85a209c8e45b661596c382cc20f4e32fd2fe"
V41 = "b87b9e396f771345d4ef122ba33456304f15228d"
V50 = "0fdc28f013256aea84fa36fdaf1e0fa46094b18c"
COMMITS = {"v0.7": V07, "v4.1": V41, "v5.0": V50}
YEARS = {"v0.7": "2020", "v4.1": "2024", "v5.0": "2025"}


@dataclass(frozen=True)
class XvResult:
    """One MLPerf system: where its logs are, what ran on what stack and precision (with the config that says so),
    and derive_mlperf's (median, min, max, runs) for the whole system in examples/s of the benchmark."""

    round: str
    submitter: str
    system: str
    benchmark: str
    hardware_key: str
    chips: int
    framework: str
    framework_label: str
    precision: str
    precision_label: str
    global_batch: int
    slice_rate: float
    low: float
    high: float
    runs: int
    note: str = ""
    method: str = ""  # how a run's rate was read, where not from blocks after the first (NVIDIA's v0.7 logs)

    @property
    def repo(self) -> str:
        return f"mlcommons/training_results_{self.round}"

    @property
    def commit(self) -> str:
        return COMMITS[self.round]

    @property
    def year(self) -> str:
        return YEARS[self.round]


_ROCM = "PyTorch 2.6.0 on ROCm 6.4 (AMD; NeMo 2.0 rc0, Megatron-LM, TransformerEngine for ROCm)"
_FP8 = "fp8 (`FP8=True`, `FP8_ACTIVATION=True` in {})"
_FP8_COMMON = "fp8 (`FP8=True` in {}, which the system's config sources)"
_L = "llama2_70b_lora"
_B = "benchmarks/llama2_70b_lora/implementations"


def _amd(sub: str, system: str, key: str, fw_label: str, config: str, rate: float, low: float, high: float,
         note: str = "") -> XvResult:  # fmt: skip
    return XvResult("v5.0", sub, system, _L, key, 8, "pytorch", fw_label, "fp8", _FP8.format(config), 8, rate, low,
                    high, 10, note)  # fmt: skip


def _nv(rnd: str, sub: str, system: str, bench: str, key: str, chips: int, fw_label: str, precision: str,
        precision_label: str, batch: int, rate: float, low: float, high: float, runs: int,
        note: str = "") -> XvResult:  # fmt: skip
    return XvResult(rnd, sub, system, bench, key, chips, "pytorch", fw_label, precision, precision_label, batch, rate,
                    low, high, runs, note)  # fmt: skip


_SD16 = "fp16 (`precision: 16`, `unet_precision: fp16` in {}/conf/custom.yaml)"
_NEMO = "NeMo on PyTorch, CUDA (NVIDIA NGC {})"

_V07_RN = "NVIDIA/benchmarks/resnet/implementations/mxnet"
_V07_BERT = "NVIDIA/benchmarks/bert/implementations/pytorch"
_EPOCHS = ("per run, train_samples (1,281,167 images) over each epoch_start → epoch_stop time, median over the epochs "
           "after the first (warm-up; modern_refs.mlperf_epoch_rate)")  # fmt: skip
_WHOLE = ("per run, the log times the whole run as ONE block (epoch_count 1, one evaluation at its end), so the rate is "
          "train_samples (the sequences the run trained, stated at its end) over that block's time, warm-up and the "
          "final evaluation inside it: a slight underestimate of the steady state (mlperf_logs.whole_run_rate)")  # fmt: skip


def _v07(system: str, bench: str, key: str, fw_label: str, precision_label: str, batch: int, rate: float, low: float,
         high: float, runs: int) -> XvResult:  # fmt: skip
    framework = "mxnet" if bench == "resnet" else "pytorch"
    method = _EPOCHS if bench == "resnet" else _WHOLE
    return XvResult("v0.7", "NVIDIA", system, bench, key, 8, framework, fw_label, "mixed_float16", precision_label,
                    batch, rate, low, high, runs, "", method)  # fmt: skip


# derive_mlperf(<mirror at the commit>, "<submitter>/results/<system>", <benchmark>), rounded to 2 decimals
XV_RESULTS = (
    # MLPerf Training v5.0, Llama-2-70B LoRA: AMD MI300X
    _amd("AMD", "MI300X_EPYC_9575F_pytorch", "mi300x", _ROCM,
         f"AMD/{_B}/MI300X_EPYC_9575F_pytorch/config_MI300X_1x8x1.sh", 2.03, 2.02, 2.03),
    _amd("Dell", "1xXE9680x8MI300X", "mi300x", "PyTorch on ROCm (AMD's MLPerf container; Dell's systems json: "
         "'Pytorch 24.09')", f"Dell/{_B}/pytorch/config_MI300X_1x8x1.sh", 2.06, 2.05, 2.06),
    _amd("MangoBoost", "MI300X-LLMBoost-GPUBoost-1node", "mi300x", "MangoBoost LLMBoost 1.1.0 on PyTorch, ROCm 6.4.0 "
         "(AMD)", f"MangoBoost/{_B}/MI300X-LLMBoost-GPUBoost-1node/config_MI300X_1x8x1.sh", 2.02, 2.02, 2.03),
    _amd("Oracle", "1xBM.GPU.MI300X.8", "mi300x", "PyTorch 2.6.0a0 on ROCm 6.4.0 (AMD)",
         f"Oracle/{_B}/1xBM.GPU.MI300X.8/config_MI300X_1x8x1.sh", 2.00, 1.96, 2.01),
    # AMD MI325X
    _amd("AMD", "MI325X_EPYC_9575F_pytorch", "mi325x", _ROCM,
         f"AMD/{_B}/MI325X_EPYC_9575F_pytorch/config_MI325X_1x8x1.sh", 2.73, 2.73, 2.73),
    _amd("GigaComputing", "G893-ZX1-AAX2_pytorch", "mi325x", "PyTorch on ROCm (AMD; the systems json says "
         "'2.3.0+rocm5.7')", "GigaComputing/benchmarks/llama2_70b_lora/config_MI325X_1x8x1.sh", 2.73, 2.73, 2.73),
    _amd("QCT", "D75T-7U", "mi325x", "PyTorch on ROCm 6.4.0 (AMD)",
         "QCT/benchmark/llama2_70b_lora/implementations/pytorch_D75T-7U/config_D75T-7U.sh", 2.68, 2.68, 2.69),
    _amd("Supermicro", "8xMI325X_2xEPYC_9575F", "mi325x", "PyTorch on ROCm 6.4.0 (AMD)",
         f"Supermicro/{_B}/8xMI325X_2xEPYC_9575F/config_MI325X_1x8x1.sh", 2.84, 2.84, 2.84),
    # NVIDIA B200
    _nv("v5.0", "NVIDIA", "nyx_n1_ngc25.04_nemo", _L, "b200", 8, _NEMO.format("25.04"), "fp8",
        _FP8_COMMON.format(f"NVIDIA/{_B}/nyx_n1_ngc25.04_nemo/config_common.sh"), 8, 5.29, 5.17, 5.34, 10),
    _nv("v5.0", "Dell", "1xXE9680Lx8B200-SXM-180GB", _L, "b200", 8, _NEMO.format("25.04"), "fp8",
        _FP8_COMMON.format(f"Dell/{_B}/nemo/config_common.sh"), 8, 5.28, 5.26, 5.29, 10),
    _nv("v5.0", "GigaComputing", "G893-SD1_pytorch", _L, "b200", 8, _NEMO.format("25.04"), "fp8",
        _FP8_COMMON.format(f"GigaComputing/{_B}/pytorch/config_common.sh"), 8, 5.26, 5.26, 5.27, 10),
    _nv("v5.0", "Lambda", "1cc_b200_n1_ngc25.04_nemo", _L, "b200", 8, _NEMO.format("25.04"), "fp8",
        _FP8_COMMON.format(f"Lambda/{_B}/1cc_b200_0416/config_common.sh"), 8, 5.26, 5.26, 5.26, 10),
    _nv("v5.0", "Oracle", "1xBM.GPU.B200.8", _L, "b200", 8, _NEMO.format("25.04"), "fp8",
        _FP8_COMMON.format(f"Oracle/{_B}/1xBM.GPU.B200.8/config_common.sh"), 8, 5.24, 5.24, 5.24, 10),
    _nv("v5.0", "Supermicro", "AS-A126GS-TNBR", _L, "b200", 8, _NEMO.format("25.04"), "fp8",
        _FP8_COMMON.format(f"Supermicro/{_B}/b200_nemo/config_common.sh"), 8, 5.30, 5.29, 5.30, 10),
    # NVIDIA H200
    _nv("v5.0", "Dell", "1xXE9680Lx8H200-SXM-141GB", _L, "h200", 8, _NEMO.format("24.09"), "fp8",
        _FP8_COMMON.format(f"Dell/{_B}/nemo/config_XE9680lx8H200-SXM-141GB_config_common.sh"), 8, 2.54, 2.54, 2.54,
        10),
    _nv("v5.0", "Oracle", "1xBM.GPU.H200.8", _L, "h200", 8, "NeMo on PyTorch, CUDA (Oracle's systems json: 'PyTorch "
        "NVIDIA Release 23.09')", "fp8", _FP8_COMMON.format(f"Oracle/{_B}/1xBM.GPU.H200.8/configs/config_common.sh"),
        8, 2.51, 2.50, 2.56, 10),
    _nv("v5.0", "QCT", "D74H-7U", _L, "h200", 8, "NeMo on PyTorch, CUDA 12.4 (NVIDIA NGC)", "fp8",
        _FP8_COMMON.format("QCT/benchmark/llama2_70b_lora/implementations/pytorch_D74H-7U/configs/config_common.sh"),
        8, 2.51, 2.51, 2.52, 10),
    _nv("v5.0", "Supermicro", "AS-4125GS-TNHR2-LCC", _L, "h200", 8, _NEMO.format("24.09"), "fp8",
        _FP8_COMMON.format(f"Supermicro/{_B}/h200_nemo/configs/config_common.sh"), 8, 2.58, 2.58, 2.59, 10),
    # NVIDIA H100: the round's only H100 system for this benchmark
    _nv("v5.0", "SCITIX", "scitix_n8_ngc24.09_nemo", _L, "h100", 64, _NEMO.format("24.09"), "fp8",
        _FP8_COMMON.format(f"SCITIX/{_B}/scitix_n8_ngc24.09_nemo/configs/config_common.sh"), 8, 14.59, 14.57, 14.61,
        10, "64 GPUs (8 nodes): v5.0's only H100 system for Llama-2-70B LoRA; a GPU of an 8-GPU system would run "
        "faster (global batch 8 over 64 GPUs: tensor × context parallel 4 × 2)."),
    # MLPerf Training v4.1, GPT-3 175B: NVIDIA's smallest systems (Google's TPU rows: tpu_refs.py)
    _nv("v4.1", "NVIDIA", "eos_n32_ngc24.09_nemo", "gpt3", "h100", 256, _NEMO.format("24.09"), "fp8",
        "fp8 (`FP8=True`, `FP8_HYBRID=True` in NVIDIA/benchmarks/gpt3/implementations/eos_n32_ngc24.09_nemo/"
        "config_fp8.sh, sourced by config_DGXH100_32x8x256x4x8_mbs2.sh)", 2048, 227861.01, 227212.45, 227871.84, 3,
        "256 GPUs (32 nodes): NVIDIA's smallest v4.1 GPT-3 system."),
    _nv("v4.1", "NVIDIA", "b200_n8_preview_nemo", "gpt3", "b200", 64, "NeMo on PyTorch, CUDA (NVIDIA NeMo, preview)",
        "fp8", "fp8 (`FP8=True`, `FP8_HYBRID=True` in NVIDIA/benchmarks/gpt3/implementations/b200_n8_preview_nemo/"
        "config_fp8.sh, sourced by config_DGXB200_8x8x1024x4x8_mbs2_cg.sh)", 2048, 115689.51, 115584.04, 116299.54, 3,
        "64 GPUs (8 nodes), a preview submission (hardware not yet available then)."),
    # Stable Diffusion v2: v4.1 beside Google's 8-chip TPU v5p slice, v5.0 beside its 256-chip Trillium slice
    _nv("v4.1", "NVIDIA", "eos_ngc24.09_nemo", "stable_diffusion", "h100", 8, _NEMO.format("24.09"), "mixed_float16",
        _SD16.format("NVIDIA/benchmarks/stable_diffusion/implementations/eos_ngc24.09_nemo"), 256, 1098.76, 1085.94,
        1101.41, 10),
    _nv("v4.1", "NVIDIA", "h200_ngc24.09_nemo", "stable_diffusion", "h200", 8, _NEMO.format("24.09"),
        "mixed_float16", _SD16.format("NVIDIA/benchmarks/stable_diffusion/implementations/h200_ngc24.09_nemo"), 256,
        1115.76, 1114.93, 1116.49, 10),
    _nv("v4.1", "NVIDIA", "b200_preview_nemo", "stable_diffusion", "b200", 8, "NeMo on PyTorch, CUDA (NVIDIA NeMo, "
        "preview)", "mixed_float16", _SD16.format("NVIDIA/benchmarks/stable_diffusion/implementations/"
        "b200_preview_nemo"), 256, 1907.46, 1897.56, 1918.18, 10, "A preview submission."),
    _nv("v5.0", "Google", "h200_nemo", "stable_diffusion", "h200", 8, _NEMO.format("24.12") + ", run by Google",
        "mixed_float16", _SD16.format("Google/benchmarks/stable_diffusion/implementations/h200_nemo"), 256, 1120.70,
        1104.64, 1137.93, 10),
    _nv("v5.0", "NVIDIA", "nyx_n1_ngc25.04_nemo", "stable_diffusion", "b200", 8, _NEMO.format("25.04"),
        "mixed_float16", _SD16.format("NVIDIA/benchmarks/stable_diffusion/implementations/nyx_n1_ngc25.04_nemo"), 256,
        2198.82, 2175.65, 2210.46, 10),
    # MLPerf Training v0.7 (2020), ResNet-50 and BERT: NVIDIA's 8-GPU DGX systems beside Google's TPU v3 and v4 slices
    # of the same round (tpu_refs.py), the only round where both ran both benchmarks on one-node-sized systems
    _v07("dgxa100_ngc20.06_mxnet", "resnet", "a100", "MXNet NVIDIA Release 20.06", "fp16 (`--dtype float16` in "
         f"{_V07_RN}/run_and_time.sh)", 3264, 22525.22, 21879.91, 22543.85, 5),
    _v07("dgx1_ngc20.06_mxnet", "resnet", "v100", "MXNet NVIDIA Release 20.06", "fp16 (`--dtype float16` in "
         f"{_V07_RN}/run_and_time.sh)", 1664, 11178.30, 11159.17, 11218.18, 5),
    _v07("dgxa100_ngc20.06_pytorch", "bert", "a100", "PyTorch NVIDIA Release 20.06", "fp16 (`--fp16` in the command "
         f"the log states; {_V07_BERT}/config_DGXA100_1x8x32x1.sh)", 256, 1028.62, 991.69, 1054.27, 10),
    _v07("dgx1_ngc20.06_pytorch", "bert", "v100", "PyTorch NVIDIA Release 20.06", "fp16 (`--fp16` in the command the "
         f"log states; {_V07_BERT}/config_DGX1_1x8x6x6.sh)", 288, 379.88, 373.38, 390.68, 10),
)  # fmt: skip

LORA = (
    {"model": "llama2_70b", "shape": "seq 8192", "model_label": "Llama-2-70B LoRA fine-tuning (MLPerf, rank 16, "
     "sequences of 8,192 tokens)", "dataset": "govreport", "dataset_label": "SCROLLS GovReport (MLPerf Llama-2-70B "
     "LoRA)", "target": "0.925 eval loss", "metric": "examples_per_s"}, "sequences",
    "the samples_count the block ended at (its block_stop's, or where NVIDIA's logger repeats the start's there, the "
    "eval_start's that follows) less its block_start's; blocks stop before the evaluation",
)  # fmt: skip
WORKLOADS = {"llama2_70b_lora": LORA, **{k: TPU_WORKLOADS[k] for k in ("resnet", "bert", "gpt3", "stable_diffusion")}}
# As tpu_refs.SD_DOUBT: AccelBench counts no per-image cost for Stable Diffusion, so no estimate can use the rows
SD_DOUBT = "no per-image cost for this model in AccelBench, so estimates leave it out (as tpu_refs.py's SD rows)"
VENDOR = {"mi300x": "AMD", "mi325x": "AMD", "h100": "NVIDIA", "h200": "NVIDIA", "b200": "NVIDIA", "a100": "NVIDIA",
          "v100": "NVIDIA"}


def _digits(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.2f}"


def per_chip(m: XvResult) -> float:
    """The system's rate divided by its GPUs, to 3 significant figures (whole numbers from 100 up)."""
    rate = m.slice_rate / m.chips
    if rate >= 100:
        return float(round(rate))
    return float(f"{rate:.3g}")


def xv_row(seq: int, m: XvResult) -> dict[str, str]:
    """One per-GPU row for one MLPerf system."""
    fields, unit, blocks = WORKLOADS[m.benchmark]
    path = f"{m.submitter}/results/{m.system}/{m.benchmark}"
    method = m.method or (f"per run, {blocks} over each block_start → block_stop time, median over the blocks after "
                          "the first (compilation, warm-up)")  # fmt: skip
    notes = (
        f"Derived from the :::MLLOG result logs {path}/result_*.txt at {m.repo} commit {m.commit[:12]} ({m.runs} "
        f"runs): {method}, then the median over runs (modern_refs.derive_mlperf): {_digits(m.slice_rate)} "
        f"{unit}/s for the whole system (spread {_digits(m.low)}–{_digits(m.high)} over runs) ÷ {m.chips} GPUs "
        f"({m.submitter}/systems/{m.system}.json: nodes × accelerators_per_node) = {per_chip(m):g} {unit}/s per GPU. "
        f"Precision: {m.precision_label}. {m.note + ' ' if m.note else ''}MLPerf publishes only the time to train; "
        "this rate is AccelBench's computation. Closed division: real data, a vendor-tuned stack; a ceiling for a "
        "plain framework's fit, and beside other vendors' rows of the same round a measure of their stacks."
    )
    row = _base(
        SOURCE_ID, seq,
        source_title=f"MLPerf Training {m.round} closed division, same benchmark on several vendors' chips "
        "(per-GPU steady-state rate, derived)", source_url=gh(m.repo, m.commit, path, "tree"),
        source_kind="benchmark-suite", year=m.year,
        hardware_label=f"{BY_KEY[m.hardware_key].short}: {m.submitter} '{m.system}' ({m.chips} GPUs), per GPU",
        hardware_key=m.hardware_key, hardware_count="1", framework=m.framework, framework_label=m.framework_label,
        data_kind="real", batch_size=str(m.global_batch), batch_scope="global",
        batch_label=f"{m.global_batch} (the system's global batch)", precision=m.precision,
        precision_label=m.precision_label, value=f"{per_chip(m):g}", value_kind="derived", notes=notes, **fields,
    )  # fmt: skip
    if m.benchmark == "stable_diffusion":
        row |= {"doubtful": "True", "doubt_reason": SD_DOUBT}
    row["hardware"] = display_name(row)
    return row


def xv_rows() -> list[dict[str, str]]:
    """Every cross-vendor row, in XV_RESULTS's order (ref_ids MLPERF-XV-01 …)."""
    return [xv_row(i, m) for i, m in enumerate(XV_RESULTS, start=1)]
