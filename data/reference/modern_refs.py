"""Published training figures for today's accelerators (issue 29, item 2): rows build_reference.py appends after the
transformer rows (origin `modern_refs`), before AccelBench's own pack.

Three sources, each read from a public GitHub repository at a named commit:

- Lambda's `deeplearning-benchmark` PyTorch v2 results (`pytorch/pytorch-train-throughput-v2-{fp16,fp32}.csv`, kept
  here byte for byte in `lambda_v2/`) for H100 SXM/PCIe, H200, GH200 and B200 at 1/2/4/8 GPUs; the batch each run
  used comes from its `benchmark.para` (`lambda_v2/global_batch.csv`). Every system name is read by
  `engine.imports.facts.system_names.parse_system`, the parser History uses, so the two agree on what one configuration
  is: repeats of one configuration on several hosts (same device, count, memory, form factor, variant, precision
  and batch; another host or provider prefix) become ONE row, their median, with the spread in the notes.
- MLPerf Training v4.0 closed-division result logs: the steady-state ResNet-50 epoch rate of 8-GPU systems (H100
  SXM, H200, H100 PCIe, L40S; `mlperf_epoch_rate`) and the BERT logs' own throughput lines (8x H100, 8x H200,
  4x L40S; `mlperf_bert_rate`), derived from the `:::MLLOG` lines (MLPerf itself publishes only the time to train).
- Google's MaxText tiering page: approximate pre-training tokens/s per TPU v6e and v5p chip (Llama 2/3.1).

    python data/reference/modern_refs.py                          # prints the rows
    python data/reference/modern_refs.py --mlperf REPO_DIR SYSTEM [resnet|bert]  # re-derives an MLPerf figure
"""

from __future__ import annotations

import csv
import io
import json
import statistics
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]

from curation_rules import display_name  # (needs HERE on sys.path first)
from mlperf_logs import mlperf_block_rate

from engine.imports.facts.system_names import parse_system
from engine.reference.data import COLUMN_NAMES
from engine.reference.units import HARDWARE as BY_KEY
from engine.reference.units import METRICS

ORIGIN = "modern_refs"
LAMBDA_DIR = HERE / "lambda_v2"
LAMBDA_REPO = "lambdal/deeplearning-benchmark"
LAMBDA_CSV_COMMIT = "200af3b7ce8ee1f55c7ed6eaee0df2cafe2d7886"  # last change of the two v2 CSVs ("add b200")
LAMBDA_HEAD = "aa5addb6a53675a649a80036dad548f1c27cbcc4"  # where the benchmark.para files were read
MLPERF_REPO = "mlcommons/training_results_v4.0"
MLPERF_COMMIT = "6fe954378efe4a1a1bd665550b18ff8f26018def"
LAMBDA_SOURCE = "LAMBDA-DLB-V2"
MLPERF_SOURCE = "MLPERF-V40"


def gh(repo: str, commit: str, path: str, kind: str = "blob") -> str:
    """A GitHub address pinned to one commit (kind `tree` for a folder)."""
    return f"https://github.com/{repo}/{kind}/{commit}/{path}"


@dataclass(frozen=True)
class Workload:
    """One column of Lambda's v2 CSVs: what it trains, on what data, and the unit the log reports.

    `bench` is the result folder's name per precision file (`PyTorch_resnet50_AMP`), where benchmark.para lives.
    """

    model: str
    model_label: str
    metric: str
    unit_note: str
    dataset: str
    dataset_label: str
    data_kind: str
    bench: dict[str, str]
    shape: str = ""


def _bench(name: str, half: str = "FP16") -> dict[str, str]:
    return {"fp16": f"PyTorch_{name}_{half}", "fp32": f"PyTorch_{name}_FP32"}


_SQUAD = ("squad_v1_1", "SQuAD v1.1 (train-v1.1.json)", "real")
_LJ = ("ljspeech", "LJSpeech-1.1 (ljs_audio_text_train_subset filelists)", "real")
# Column of the CSV → workload. Model keys follow the zoo's (resnet50, bert_base, bert_large); the rest are clear keys.
WORKLOADS: dict[str, Workload] = {
    "resnet50": Workload(
        "resnet50", "ResNet-50 v1.5 (NVIDIA DLE ConvNets, NCHW)", "images_per_s",
        "images/s: the log's train summary line ('Summary: train.loss … ips')", "imagenet",
        "synthetic ImageNet-shaped input (--data-backend synthetic, 224x224)", "synthetic", _bench("resnet50", "AMP"),
    ),
    "ssd": Workload(
        "ssd", "SSD300 v1.1, ResNet-50 backbone (NVIDIA DLE Detection/SSD)", "images_per_s",
        "images/s: the log's 'Average images/sec'", "coco2017", "COCO 2017 (/data/object_detection)", "real",
        _bench("SSD", "AMP"),
    ),
    "bert_base_squad": Workload(
        "bert_base", "BERT-base uncased, SQuAD v1.1 fine-tuning (bert_base_squad)", "examples_per_s",
        "sequences/s: the log's training_sequences_per_second", *_SQUAD, _bench("bert_base_squad"), "seq 384",
    ),
    "bert_large_squad": Workload(
        "bert_large", "BERT-large uncased, SQuAD v1.1 fine-tuning (bert_large_squad)", "examples_per_s",
        "sequences/s: the log's training_sequences_per_second", *_SQUAD, _bench("bert_large_squad"), "seq 384",
    ),
    "gnmt": Workload(
        "gnmt", "GNMT v2 (NVIDIA DLE Translation/GNMT)", "examples_per_s",
        "tokens/s: the log's 'Training: … Tok/s'; stored as examples_per_s, one example = one token",
        "wmt16_de_en", "WMT16 English-German (/data/gnmt/wmt16_de_en)", "real", _bench("gnmt"),
    ),
    "tacotron2": Workload(
        "tacotron2", "Tacotron 2 (NVIDIA DLE SpeechSynthesis/Tacotron2)", "examples_per_s",
        "DLE's train_items_per_sec, which counts output mel-spectrogram frames per second; stored as "
        "examples_per_s, one example = one mel frame", *_LJ, _bench("tacotron2"),
    ),
    "waveglow": Workload(
        "waveglow", "WaveGlow (NVIDIA DLE SpeechSynthesis/Tacotron2, --model-name WaveGlow)", "examples_per_s",
        "DLE's train_items_per_sec, which counts output audio samples per second; stored as examples_per_s, one "
        "example = one audio sample", *_LJ, _bench("waveglow"),
    ),
}  # fmt: skip
PRECISIONS = {"fp16": ("mixed_float16", "amp / fp16 mixed (the CSV's fp16 file)"), "fp32": ("tf32", "the fp32 file")}
_TF32 = (
    "The file says fp32; on Hopper and Blackwell the NGC PyTorch container runs FP32 convolutions and matmuls as "
    "TF32 by default."
)


@dataclass(frozen=True)
class Config:
    """What makes two Lambda results one configuration: the parser's fields (not host, not provider), plus the
    precision file, the column and the batch the run used."""

    hardware_key: str
    device_count: int
    memory_gb: float | None
    form_factor: str
    variant: str
    precision: str
    column: str
    global_batch: int


@dataclass(frozen=True)
class HostResult:
    """One system row of a CSV: its full name, the provider prefix the parser read, and the CSV's value."""

    system: str
    provider: str
    value: float


def read_throughput(text: str) -> list[tuple[str, str, float]]:
    """(system, column, value) for every positive cell of a Lambda throughput CSV; 0 means "no result"."""
    out = []
    for row in csv.DictReader(io.StringIO(text)):
        system = row.pop("")
        for column, cell in row.items():
            if column in WORKLOADS and cell and float(cell) > 0:
                out.append((system, column, float(cell)))
    return out


def read_batches(text: str) -> dict[tuple[str, str], tuple[int, int]]:
    """(system, result folder) → (GLOBAL_BATCH, GPU) as each run's benchmark.para states them."""
    rows = csv.DictReader(io.StringIO(text))
    return {(r["system"], r["benchmark"]): (int(r["global_batch"]), int(r["gpu"])) for r in rows}


def config_of(system: str, column: str, precision: str, batches: dict[tuple[str, str], tuple[int, int]]) -> Config:
    """The configuration a system name states, read by the one parser; fails loudly where the name and the run's
    own benchmark.para disagree on the GPU count (the parser would be wrong, and so would every row)."""
    name = parse_system(system)
    if name.hardware_key is None or name.device_count is None:
        raise ValueError(f"{system!r}: the parser finds no device or no count")
    batch, gpus = batches[(system, WORKLOADS[column].bench[precision])]
    if gpus != name.device_count:
        raise ValueError(f"{system!r}: the name reads {name.device_count} GPUs, benchmark.para says {gpus}")
    return Config(
        name.hardware_key, name.device_count, name.memory_gb, name.form_factor, name.variant, precision, column, batch
    )


def group_hosts(
    cells: dict[str, list[tuple[str, str, float]]], batches: dict[tuple[str, str], tuple[int, int]]
) -> dict[Config, list[HostResult]]:
    """Every CSV cell under its configuration (cells: precision → read_throughput of that file)."""
    groups: dict[Config, list[HostResult]] = {}
    for precision, rows in cells.items():
        for system, column, value in rows:
            config = config_of(system, column, precision, batches)
            groups.setdefault(config, []).append(HostResult(system, parse_system(system).provider, value))
    return groups


def _number(x: float) -> str:
    return f"{x:g}" if x != int(x) else str(int(x))


def spread_note(hosts: list[HostResult]) -> tuple[str, str]:
    """(value, note) for one configuration: the one host's value, or the median of several with min–max and n."""
    values = sorted(h.value for h in hosts)
    if len(hosts) == 1:
        return _number(values[0]), f"One host: row '{hosts[0].system}'."
    providers = Counter(h.provider or "(none)" for h in hosts)
    where = ", ".join(f"{p} ×{n}" if n > 1 else p for p, n in sorted(providers.items()))
    return _number(statistics.median(values)), (
        f"Median of {len(hosts)} hosts (spread {_number(values[0])}–{_number(values[-1])}, n {len(hosts)}); "
        f"provider prefixes: {where}. Rows, e.g. '{hosts[0].system}'."
    )


def _label(c: Config, device_model: str) -> str:
    memory = f" {_number(c.memory_gb)}GB" if c.memory_gb else ""
    form = f" {c.form_factor}" if c.form_factor and c.form_factor.lower() not in device_model.lower() else ""
    variant = f" ({c.variant})" if c.variant and c.variant != "v2" else ""
    return f"{c.device_count}x {device_model}{memory}{form}{variant}"


def _base(source_id: str, seq: int, **fields: str) -> dict[str, str]:
    row = {name: "" for name in COLUMN_NAMES} | fields
    metric = row["metric"]
    row |= {
        "ref_id": f"{source_id}-{seq:02d}",
        "source_id": source_id,
        "origin": ORIGIN,
        "device_type": "gpu",
        "task": "training",
        "unit": METRICS[metric].unit,
        "higher_is_better": str(METRICS[metric].higher_is_better),
        "count_unit": "gpu",
        "doubtful": "False",
    }
    row["hardware"] = display_name(row)
    return row


def lambda_row(seq: int, c: Config, hosts: list[HostResult]) -> dict[str, str]:
    """One curated row for one configuration of Lambda's v2 results."""
    w = WORKLOADS[c.column]
    precision, precision_label = PRECISIONS[c.precision]
    value, spread = spread_note(hosts)
    csv_path = f"pytorch/pytorch-train-throughput-v2-{c.precision}.csv"
    per_gpu = c.global_batch // c.device_count
    notes = (
        f"{csv_path} at {LAMBDA_REPO} commit {LAMBDA_CSV_COMMIT[:12]}, column {c.column}. {spread} Each CSV value "
        "is the mean over the run logs of its result folder, truncated to an integer (scripts/"
        "compile_results_pytorch_v2.py). Batch: GLOBAL_BATCH of pytorch/results_v2/<row>/"
        f"{w.bench[c.precision]}/benchmark.para at {LAMBDA_HEAD[:12]} ({per_gpu} per GPU × {c.device_count}). "
        f"NGC pytorch:24.10-py3 (pytorch/README.md). {_TF32 if precision == 'tf32' else ''} "
        f"[published unit: {w.unit_note}]"
    )
    device_model = parse_system(hosts[0].system).device_model
    row = _base(
        LAMBDA_SOURCE, seq,
        source_title="Lambda deeplearning-benchmark (PyTorch v2): pytorch-train-throughput-v2-fp16/fp32.csv, "
        "batch from each run's benchmark.para",
        source_url=gh(LAMBDA_REPO, LAMBDA_CSV_COMMIT, csv_path), source_kind="benchmark-suite", year="2025",
        hardware_label=_label(c, device_model), hardware_key=c.hardware_key, hardware_count=str(c.device_count),
        framework="pytorch", framework_version="NGC 24.10",
        framework_label="PyTorch (NGC pytorch:24.10-py3), NVIDIA DeepLearningExamples via Lambda's fork",
        model=w.model, model_label=w.model_label, dataset=w.dataset, dataset_label=w.dataset_label,
        data_kind=w.data_kind, batch_size=str(c.global_batch), batch_scope="global",
        batch_label=f"{c.global_batch} (GLOBAL_BATCH, {per_gpu} per GPU)", shape=w.shape, precision=precision,
        precision_label=precision_label, xla="", metric=w.metric, value=value,
        value_kind="exact" if len(hosts) == 1 else "derived", notes=" ".join(notes.split()),
    )  # fmt: skip
    if c.variant and c.variant != "v2":  # the chart name tells a variant (HTOff, a backup run) from the plain one
        row["hardware"] += f" ({c.variant.removesuffix(' v2').replace('v2 ', '')})"
    return row


_DEVICE_ORDER = ("h100", "h100_pcie", "h200", "gh200", "b200")


def _order(c: Config) -> tuple[int, int, int, float, str, int, str]:
    """Workload, device, count, memory, variant, batch rank, precision: fp16 and fp32 of one configuration adjacent."""
    rank = _DEVICE_ORDER.index(c.hardware_key) if c.hardware_key in _DEVICE_ORDER else len(_DEVICE_ORDER)
    per_gpu = c.global_batch // c.device_count // (2 if c.precision == "fp16" else 1)  # fp16 runs use about 2×
    return list(WORKLOADS).index(c.column), rank, c.device_count, c.memory_gb or 0, c.variant, per_gpu, c.precision


def lambda_rows(fp16_csv: str, fp32_csv: str, batch_csv: str) -> list[dict[str, str]]:
    """Lambda's v2 results as curated rows: one per configuration, in a fixed order (workload, device, count)."""
    batches = read_batches(batch_csv)
    groups = group_hosts({"fp16": read_throughput(fp16_csv), "fp32": read_throughput(fp32_csv)}, batches)
    return [lambda_row(i, c, groups[c]) for i, c in enumerate(sorted(groups, key=_order), start=1)]


def mlperf_epoch_rate(log_text: str) -> tuple[float, int, int]:
    """(images/s, global batch, epochs timed) of one MLPerf ResNet-50 result log: train_samples over each epoch's
    epoch_start → epoch_stop time, median over the epochs after the first (the first carries the warm-up)."""
    events = [json.loads(line.split(":::MLLOG", 1)[1]) for line in log_text.splitlines() if ":::MLLOG" in line]
    samples = next(e["value"] for e in events if e["key"] == "train_samples")
    batch = next(e["value"] for e in events if e["key"] == "global_batch_size")
    starts = {e["metadata"]["epoch_num"]: e["time_ms"] for e in events if e["key"] == "epoch_start"}
    rates = [
        samples / ((e["time_ms"] - starts[e["metadata"]["epoch_num"]]) / 1000.0)
        for e in events
        if e["key"] == "epoch_stop" and e["metadata"]["epoch_num"] in starts
    ]
    if len(rates) < 2:
        raise ValueError("fewer than two timed epochs: no steady-state rate")
    return statistics.median(rates[1:]), int(batch), len(rates)


def mlperf_bert_rate(log_text: str) -> tuple[float, int, int]:
    """(sequences/s, global batch, intervals) of one MLPerf BERT result log: the log's own tracked_stats throughput
    (stated once per evaluation interval), median over the intervals after the first (warm-up)."""
    events = [json.loads(line.split(":::MLLOG", 1)[1]) for line in log_text.splitlines() if ":::MLLOG" in line]
    batch = next(e["value"] for e in events if e["key"] == "global_batch_size")
    rates = [
        float(e["value"]["throughput"])
        for e in events
        if e["key"] == "tracked_stats" and isinstance(e["value"], dict) and "throughput" in e["value"]
    ]
    if len(rates) < 2:
        raise ValueError("fewer than two throughput intervals: no steady-state rate")
    return statistics.median(rates[1:]), int(batch), len(rates)


def mlperf_rate(log_text: str, benchmark: str) -> tuple[float, int, int]:
    """One result log's steady-state rate: epoch times (ResNet-50) or the log's own throughput (BERT) where the log
    states them, as NVIDIA's do; else its timed blocks, as Google's TPU logs have (mlperf_logs.mlperf_block_rate)."""
    if benchmark == "resnet" and '"epoch_start"' in log_text:
        return mlperf_epoch_rate(log_text)
    if benchmark == "bert" and '"tracked_stats"' in log_text:
        return mlperf_bert_rate(log_text)
    return mlperf_block_rate(log_text, benchmark)


def derive_mlperf(repo_dir: Path, system_dir: str, benchmark: str = "resnet") -> tuple[float, float, float, int]:
    """(median, min, max, runs) of the per-run rate over a system's <benchmark>/result_*.txt in a git mirror (HEAD)."""

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(repo_dir), *args], capture_output=True, text=True, check=True).stdout

    files = [f for f in git("ls-tree", "--name-only", "HEAD", f"{system_dir}/{benchmark}/").split() if "/result_" in f]
    rates = [mlperf_rate(git("show", f"HEAD:{f}"), benchmark)[0] for f in files]
    return statistics.median(rates), min(rates), max(rates), len(rates)


@dataclass(frozen=True)
class MlperfResult:
    """One MLPerf v4.0 system's derived rate: its result folder, the system as its systems/*.json names it, and
    the median / min / max over its runs (derive_mlperf at MLPERF_COMMIT, rounded to whole examples/s)."""

    benchmark: str
    folder: str
    label: str
    framework_label: str
    global_batch: int
    value: str
    low: str
    high: str
    runs: int


MLPERF_RESULTS = (
    MlperfResult("resnet", "NVIDIA/results/eos_ngc24.04_mxnet", "8x NVIDIA H100-SXM5-80GB (Eos, 1x DGX H100)",
                 "MXNet NVIDIA Release 24.04", 3200, "57291", "57277", "57381", 5),
    MlperfResult("resnet", "NVIDIA/results/h200_ngc24.04_mxnet", "8x NVIDIA H200-SXM5-141GB (1x HGX H200)",
                 "MXNet NVIDIA Release 24.04", 3200, "63610", "63566", "63630", 5),
    MlperfResult("resnet", "ASUSTeK/results/ESC8000A-E12-8xH100-PCIE-80GB", "8x NVIDIA H100-PCIe-80GB (ASUS "
                 "ESC8000A-E12)", "NVIDIA Release 24.04 MxNet", 3200, "36188", "36185", "36233", 5),
    MlperfResult("resnet", "Fujitsu/results/PRIMERGY-CDI-L40Sx8", "8x NVIDIA L40S 48GB (Fujitsu PRIMERGY CDI)",
                 "NGC MXNet 24.04", 2400, "14868", "14852", "14878", 5),
    MlperfResult("bert", "Dell/results/XE9680x8H100-SXM-80GB", "8x NVIDIA H100-SXM5-80GB (Dell XE9680)",
                 "NGC PyTorch 23.09", 768, "7555", "7546", "7579", 10),
    MlperfResult("bert", "NVIDIA/results/h200_ngc23.09_pytorch", "8x NVIDIA H200-SXM5-141GB (1x HGX H200)",
                 "PyTorch NVIDIA Release 23.09", 768, "7982", "7970", "8011", 10),
    MlperfResult("bert", "Dell/results/R760xax4L40S", "4x NVIDIA L40S 48GB (Dell R760xa)", "NGC PyTorch 23.04", 176,
                 "485", "467", "503", 10),
)  # fmt: skip

_MLPERF_METHOD = {
    "resnet": "per run, train_samples (1,281,167) / (epoch_stop − epoch_start) for each epoch, median over the epochs "
    "after the first (warm-up); the row is the median over runs (modern_refs.mlperf_epoch_rate)",
    "bert": "per run, the log's own tracked_stats throughput (sequences/s of the whole system, stated once per "
    "evaluation interval), median over the intervals after the first (warm-up); the row is the median over runs "
    "(modern_refs.mlperf_bert_rate)",
}
_MLPERF_WORKLOAD = {
    "resnet": {
        "framework": "mxnet", "model": "resnet50", "model_label": "ResNet-50 v1.5 (MLPerf reference, MXNet)",
        "dataset": "imagenet", "dataset_label": "ImageNet 2012 (train, 1,281,167 images)", "target": "75.9% top-1",
        "precision_label": "fp16 (MXNet, NHWC)", "metric": "images_per_s",
    },
    "bert": {
        "framework": "pytorch", "model": "bert_large", "shape": "seq 512",
        "model_label": "BERT-large pre-training (MLPerf BERT: phase-2 checkpoint, packed sequences up to 512 tokens)",
        "dataset": "wikipedia", "dataset_label": "Wikipedia 2020-01-01 (MLPerf BERT training set)",
        "target": "0.72 masked-LM accuracy", "precision_label": "fp16 mixed (NVIDIA PyTorch BERT)",
        "metric": "examples_per_s",
    },
}  # fmt: skip


def mlperf_rows() -> list[dict[str, str]]:
    """MLPerf Training v4.0 steady-state throughput: ResNet-50 on four 8-GPU systems and BERT on three (derived)."""
    out = []
    for i, m in enumerate(MLPERF_RESULTS, start=1):
        name = parse_system(m.label)
        if name.hardware_key is None or name.device_count is None:
            raise ValueError(f"{m.label!r}: the parser finds no device or no count")
        per_gpu = round(float(m.value) / name.device_count)
        unit = "images" if m.benchmark == "resnet" else "sequences"
        notes = (
            f"Derived from the :::MLLOG result logs {m.folder}/{m.benchmark}/result_*.txt at {MLPERF_REPO} commit "
            f"{MLPERF_COMMIT[:12]} ({m.runs} runs): {_MLPERF_METHOD[m.benchmark]}; spread {m.low}–{m.high} {unit}/s "
            f"over runs; {per_gpu} {unit}/s per GPU. MLPerf publishes only the time to train; this rate is "
            "AccelBench's computation. Closed division: real data, hand-tuned stack (fused kernels, large batch); an "
            "upper bound for a plain framework's fit, not a like-for-like figure for it."
        )
        w = _MLPERF_WORKLOAD[m.benchmark]
        out.append(_base(
            MLPERF_SOURCE, i,
            source_title="MLPerf Training v4.0 closed division, ResNet-50 and BERT result logs (steady-state rate, "
            "derived)", source_url=gh(MLPERF_REPO, MLPERF_COMMIT, f"{m.folder}/{m.benchmark}", "tree"),
            source_kind="benchmark-suite", year="2024", hardware_label=m.label, hardware_key=name.hardware_key,
            hardware_count=str(name.device_count), framework_version=m.framework_label.split()[-1] if
            m.framework_label[-1].isdigit() else "", framework_label=m.framework_label, data_kind="real",
            batch_size=str(m.global_batch), batch_scope="global", batch_label=str(m.global_batch),
            precision="mixed_float16", value=m.value, value_kind="derived", notes=notes, **w,
        ))  # fmt: skip
    return out


MAXTEXT_REPO = "AI-Hypercomputer/maxtext"
MAXTEXT_COMMIT = "bd1d8a92aa840b6ee563f12eb67f4fd4d483cdb9"
MAXTEXT_PATH = "docs/reference/models/tiering.md"
MAXTEXT_SOURCE = "MAXTEXT-TIERING"
# (hardware key, section, tier, model key, model as printed, chips, sequence length, MFU, tokens/s/device as printed)
MAXTEXT_ROWS = (
    ("tpu_v6e", "Trillium (v6e)", "Gold", "llama2_70b", "Llama 2 70B", 256, 4096, "43.8%", "900"),
    ("tpu_v6e", "Trillium (v6e)", "Gold", "llama31_8b", "Llama 3.1 8B", 256, 8192, "45.46%", "7,207"),
    ("tpu_v6e", "Trillium (v6e)", "Gold", "llama31_70b", "Llama 3.1 70B", 256, 8192, "50.33%", "960"),
    ("tpu_v5p", "v5p", "Gold", "llama2_70b", "Llama 2 70B", 512, 4096, "65.4%", "692"),
)  # fmt: skip


def maxtext_rows() -> list[dict[str, str]]:
    """Google's MaxText pre-training figures per TPU chip (tokens/s/device as the tiering page prints them).

    The page calls them approximate, so the rows are `approx` and flagged doubtful like every approximate figure;
    the per-device digits are kept, hardware_count 1 chip (the page states the rate per device of the slice)."""
    out = []
    for i, (key, section, tier, model, label, chips, seq, mfu, value) in enumerate(MAXTEXT_ROWS, start=1):
        notes = (
            f"{MAXTEXT_PATH} at {MAXTEXT_REPO} commit {MAXTEXT_COMMIT[:12]}, section '{section}', {tier} table, row "
            f"'{label}': benchmark configuration {chips} chips, BF16, SL={seq}; MFU {mfu}; 'Approx tokens/sec/device' "
            f"{value}. The rate is per chip of a {chips}-chip slice (pre-training, MaxText on JAX). The page notes "
            "that results vary with configuration and software versions. [published unit: approx tokens/sec/device]"
        )
        row = _base(
            MAXTEXT_SOURCE, i,
            source_title="MaxText optimized models tiering (docs/reference/models/tiering.md): approx tokens/sec/device",
            source_url=gh(MAXTEXT_REPO, MAXTEXT_COMMIT, MAXTEXT_PATH), source_kind="vendor", year="2025",
            hardware_label=f"{BY_KEY[key].short} ({chips}-chip slice), per device", hardware_key=key,
            hardware_count="1", framework="", framework_label="JAX (MaxText)", model=model,
            model_label=f"{label} pre-training (MaxText)", dataset="", dataset_label="not stated", data_kind="unknown",
            shape=f"seq {seq}", precision="mixed_bfloat16", precision_label="BF16", xla="True",
            metric="examples_per_s", value=value.replace(",", ""), value_kind="approx", notes=notes,
        )  # fmt: skip
        row |= {"device_type": "tpu", "count_unit": "chip", "doubtful": "True"}
        row["doubt_reason"] = "approximate value ('Approx tokens/sec/device' in the source)"
        row["hardware"] = display_name(row)
        out.append(row)
    return out


def modern_rows() -> list[dict[str, str]]:
    """Every row of this module, in a fixed order: Lambda v2 (from lambda_v2/), MLPerf v4.0, MaxText."""
    text = {p: (LAMBDA_DIR / f"pytorch-train-throughput-v2-{p}.csv").read_text(encoding="utf-8") for p in PRECISIONS}
    batches = (LAMBDA_DIR / "global_batch.csv").read_text(encoding="utf-8")
    return [*lambda_rows(text["fp16"], text["fp32"], batches), *mlperf_rows(), *maxtext_rows()]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--mlperf"]:
        print(derive_mlperf(Path(sys.argv[2]), sys.argv[3], *sys.argv[4:5]))
    else:
        for r in modern_rows():
            print(f"{r['ref_id']}\t{r['hardware']}\t{r['model']}\t{r['precision']}\t{r['metric']}={r['value']}")
