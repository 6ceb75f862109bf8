"""Published BERT and GPT-2 training throughput (issue 20, item 4): rows build_reference.py appends after the
shared and seed rows (origin `transformer_refs`), before AccelBench's own pack.

Every figure was read from a file of a public GitHub repository at the commit named in its `source_url`; the
notes name the file, the table or line, and where batch and sequence length came from. The sequence length is
in `shape` as `seq N` (engine.compare.facts.workload reads it as the input shape), so a run of the zoo's `bert_base`
(128 tokens) is never put in a ratio with a 384- or 512-token figure: those are listed apart and feed the
estimate only as another workload of the transformer kind.

    python data/reference/transformer_refs.py      # prints the rows
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]

from curation_rules import display_name  # (needs HERE on sys.path first)

from engine.reference.data import COLUMN_NAMES
from engine.reference.units import METRICS

ORIGIN = "transformer_refs"

LAMBDA_COMMIT = "aa5addb6a53675a649a80036dad548f1c27cbcc4"
NV_COMMIT = "729963dd47e7c8bd462ad10bfac7a7b0b604e6dd"
KERAS_IO_COMMIT = "18c6544b18a1648022c06008dcb96aaa293140d9"
KERAS_BENCH_COMMIT = "4f1d20effcaa2c0c54a6fc485c4df4062e2578fc"  # tag v0.0.5, the version benchmarks.md links
LLMC_COMMIT = "f1e2ace651495b74ae22d45d1723443fd00ecd3a"


def _gh(repo: str, commit: str, path: str) -> str:
    return f"https://github.com/{repo}/blob/{commit}/{path}"


_LAMBDA = _gh("lambdal/deeplearning-benchmark", LAMBDA_COMMIT, "pytorch/pytorch-train-throughput-{p}.csv")
SOURCES: dict[str, dict[str, str]] = {
    "LAMBDA-DLB-BERT": {
        "source_title": "Lambda deeplearning-benchmark (PyTorch): bert_base_squad / bert_large_squad columns of "
        "pytorch-train-throughput-fp16/fp32.csv, batch from pytorch-train-bs-fp16/fp32.csv",
        "source_kind": "benchmark-suite",
        "year": "2024",
        "framework": "pytorch",
        "framework_label": "PyTorch (NGC container), NVIDIA DLE BERT run_squad.py via Lambda's fork",
        "dataset": "squad_v1_1",
        "dataset_label": "SQuAD v1.1 (train-v1.1.json)",
        "data_kind": "real",
        "shape": "seq 384",
    },
    "NV-DLE-PT-BERT": {
        "source_title": "NVIDIA DeepLearningExamples, BERT for PyTorch README: pre-training throughput "
        "(sequences/sec), 1 GPU of a DGX A100 80GB and a DGX-1 V100 32G",
        "source_url": _gh("NVIDIA/DeepLearningExamples", NV_COMMIT, "PyTorch/LanguageModeling/BERT/README.md"),
        "source_kind": "vendor",
        "year": "2022",
        "framework": "pytorch",
        "framework_version": "NGC 21.11",
        "framework_label": "PyTorch (NGC pytorch:21.11-py3), NVIDIA DLE run_pretraining.py (LAMB)",
        "model": "bert_large",
        "model_label": "BERT-large uncased pre-training (MLM + NSP)",
        "dataset": "wikipedia",
        "dataset_label": "Wikipedia (pre-training phase 1: seq 128, phase 2: seq 512)",
        "data_kind": "real",
    },
    "KERAS-IO-BENCH": {
        "source_title": "Keras 3 benchmarks (keras-io templates/getting_started/benchmarks.md), Table 2: BERT (fit)",
        "source_url": _gh("keras-team/keras-io", KERAS_IO_COMMIT, "templates/getting_started/benchmarks.md"),
        "source_kind": "vendor",
        "year": "2024",
        "model": "bert_base",
        "model_label": "BERT (fit): keras_nlp BertClassifier bert_base_en / HF bert-base-cased, 2 classes",
        "dataset": "text_unnamed",
        "dataset_label": "generated prompts (keras-benchmarks get_prompts), random 0/1 labels",
        "data_kind": "synthetic",
        "shape": "seq 512",
        "precision": "float32",
        "precision_label": "float32 (no mixed policy for BERT; floatx float32)",
    },
    "LLMC-GPT2": {
        "source_title": "karpathy/llm.c GPT-2 reproduction scripts (scripts/run_gpt2_*.sh header comments)",
        "source_kind": "blog",
        "year": "2024",
        "framework": "",
        "framework_label": "llm.c train_gpt2cu (CUDA/C, cuDNN attention, MPI over 8 GPUs)",
        "dataset": "fineweb",
        "dataset_label": "FineWeb 10B (124M) / FineWeb-EDU 100B (1558M), GPT-2 tokens",
        "data_kind": "real",
        "shape": "seq 1024",
        "precision": "mixed_bfloat16",
        "precision_label": "BF16 (Makefile: PRECISION ?= BF16)",
    },
}

_LAMBDA_NOTE = (
    "Read from pytorch/pytorch-train-throughput-{p}.csv (row '{label}', column {col}) and the batch from "
    "pytorch/pytorch-train-bs-{p}.csv (same row and column) at lambdal/deeplearning-benchmark commit "
    f"{LAMBDA_COMMIT[:12]}. Sequence length 384 from the run logs' command line (--max_seq_length=384, e.g. "
    "pytorch/results/1cc_2xH100_80GB_SXM5_v1/PyTorch_bert_base_squad_FP16/02-05-2024_04-24-56.txt), whose "
    "DLE log line reads training_sequences_per_second: the CSV's unit is sequences/s. SQuAD fine-tuning "
    "(span head), not a classifier. {prec}"
)
_TF32 = "CSV labels it fp32; on Ampere/Hopper NGC PyTorch runs FP32 matmuls as TF32 by default."
# (label in the CSV, hardware key, column, fp16 or fp32, value, batch)
LAMBDA_ROWS = (
    ("LambdaCloud V100 16GB", "v100", "bert_base_squad", "fp16", "189", "48"),
    ("LambdaCloud V100 16GB", "v100", "bert_base_squad", "fp32", "42", "24"),
    ("LambdaCloud V100 16GB", "v100", "bert_large_squad", "fp16", "57", "16"),
    ("LambdaCloud V100 16GB", "v100", "bert_large_squad", "fp32", "12", "8"),
    ("A100 80GB SXM4", "a100", "bert_base_squad", "fp16", "443", "320"),
    ("A100 80GB SXM4", "a100", "bert_base_squad", "fp32", "239", "172"),
    ("A100 80GB SXM4", "a100", "bert_large_squad", "fp16", "152", "112"),
    ("A100 80GB SXM4", "a100", "bert_large_squad", "fp32", "75", "64"),
    ("H100 80GB SXM5", "h100", "bert_base_squad", "fp16", "812", "320"),
    ("H100 80GB SXM5", "h100", "bert_base_squad", "fp32", "408", "172"),
    ("H100 80GB SXM5", "h100", "bert_large_squad", "fp16", "301", "112"),
    ("H100 80GB SXM5", "h100", "bert_large_squad", "fp32", "141", "64"),
)

_NV_NOTE = (
    "README at NVIDIA/DeepLearningExamples commit {commit} (file last changed in a07d20a, 2022), table "
    "'{table}', the 1-GPU row at sequence length {seq}: column '{col}'. The README's pre-training model is "
    "bert-large-uncased. Batch size / GPU as the table prints it: '{batch}'."
)
# (hardware key, label, table, seq, precision, column, value, batch label, batch per GPU or "")
NV_ROWS = (
    ("a100", "NVIDIA DGX A100 (8x A100 80GB), 1 GPU", "Pre-training NVIDIA DGX A100 (8x A100 80GB)", "128",
     "tf32", "Throughput - TF32(sequences/sec)", "317", "128 and 256", "128"),
    ("a100", "NVIDIA DGX A100 (8x A100 80GB), 1 GPU", "Pre-training NVIDIA DGX A100 (8x A100 80GB)", "128",
     "mixed_float16", "Throughput - mixed precision(sequences/sec)", "580", "128 and 256", "256"),
    ("a100", "NVIDIA DGX A100 (8x A100 80GB), 1 GPU", "Pre-training NVIDIA DGX A100 (8x A100 80GB)", "512",
     "tf32", "Throughput - TF32(sequences/sec)", "110", "16 and 32", "16"),
    ("a100", "NVIDIA DGX A100 (8x A100 80GB), 1 GPU", "Pre-training NVIDIA DGX A100 (8x A100 80GB)", "512",
     "mixed_float16", "Throughput - mixed precision(sequences/sec)", "210", "16 and 32", "32"),
    ("v100", "NVIDIA DGX-1 (8x V100 32G), 1 GPU", "Pre-training NVIDIA DGX-1 With 32G", "128",
     "float32", "Throughput - FP32(sequences/sec)", "50", "4096 and 4096", ""),
    ("v100", "NVIDIA DGX-1 (8x V100 32G), 1 GPU", "Pre-training NVIDIA DGX-1 With 32G", "128",
     "mixed_float16", "Throughput - mixed precision(sequences/sec)", "224", "4096 and 4096", ""),
    ("v100", "NVIDIA DGX-1 (8x V100 32G), 1 GPU", "Pre-training NVIDIA DGX-1 With 32G", "512",
     "float32", "Throughput - FP32(sequences/sec)", "19", "2048 and 2048", ""),
    ("v100", "NVIDIA DGX-1 (8x V100 32G), 1 GPU", "Pre-training NVIDIA DGX-1 With 32G", "512",
     "mixed_float16", "Throughput - mixed precision(sequences/sec)", "75", "2048 and 2048", ""),
)  # fmt: skip

_KERAS_NOTE = (
    "Table 2 of benchmarks.md at keras-team/keras-io commit {commit}, row 'BERT (fit)', column '{col}': ms/step "
    "averaged over 100 steps after the first, one A100 40GB (GCE a2-highgpu-1g). Batch 32 and sequence length "
    "512 from haifeng-jin/keras-benchmarks v0.0.5 (commit {kb}) benchmark/__init__.py (BERT_FIT_BATCH_SIZE = 32, "
    "BERT_SEQ_LENGTH = 512), the code the page links. Out-of-the-box settings (AdamW, no mixed precision); on an "
    "A100 TensorFlow and JAX run float32 matmuls as TF32 by default. {extra}"
)
# (framework key, framework label, framework version, column, ms/step, extra note)
KERAS_ROWS = (
    ("keras-jax", "Keras 3 (JAX backend), keras-nlp 0.8.2", "", "Keras 3 (JAX)", "222.37", ""),
    ("tensorflow", "Keras 3 (TensorFlow backend), keras-nlp 0.8.2", "", "Keras 3 (TensorFlow)", "214.49", ""),
    ("keras-torch", "Keras 3 (PyTorch backend, eager), keras-nlp 0.8.2", "", "Keras 3 (PyTorch) (eager)", "808.68",
     ""),
    ("pytorch", "Native PyTorch, HuggingFace Trainer (eager)", "", "Native PyTorch (eager)", "693.37",
     "HF Trainer with default settings (benchmark/bert/torch/fit.py)."),
    ("pytorch", "Native PyTorch, HuggingFace Trainer, torch.compile(mode='reduce-overhead')", "",
     "Native PyTorch (compiled)", "202.43", "HF Trainer with torch_compile (benchmark/bert/torch/fit.py)."),
)  # fmt: skip

_LLMC_NOTE = (
    "Header comment of {path} at karpathy/llm.c commit {commit}: '{quote}'. The script runs mpirun -np 8 "
    "./train_gpt2cu with -b {b} -t 1024 -d {d}: {b} sequences of 1024 tokens per GPU per micro-step, {d} tokens "
    "per optimizer step, so batch {batch} sequences (global) = {d} / 1024. BF16 is the Makefile's default "
    "precision (PRECISION ?= BF16). [published unit: {pub}/iter]"
)
# (model, label, hardware key, hardware label, script, quote, ms, kind, -b, -d, batch)
LLMC_ROWS = (
    ("gpt2_small", "GPT-2 (124M) repro on FineWeb, d12", "a100", "8X A100 80GB SXM", "scripts/run_gpt2_124M.sh",
     "on 8X A100 80GB SXM ($14/hr) steps in ~300ms/iter", "300", "approx", "64", "524288", "512"),
    ("gpt2_xl", "GPT-2 (1558M) repro on FineWeb-EDU, d48", "h100", "8X H100 80GB SXM", "scripts/run_gpt2_1558M.sh",
     "on 8X H100 80GB SXM ($28/hr) steps in 2.80s/iter", "2800", "exact", "16", "1048576", "1024"),
)  # fmt: skip


def _row(source_id: str, seq: int, **fields: str) -> dict[str, str]:
    row = {name: "" for name in COLUMN_NAMES} | SOURCES[source_id] | fields
    metric = row["metric"]
    row |= {
        "ref_id": f"{source_id}-{seq:02d}",
        "source_id": source_id,
        "origin": ORIGIN,
        "device_type": "gpu",
        "task": "training",
        "unit": METRICS[metric].unit,
        "higher_is_better": str(METRICS[metric].higher_is_better),
        "batch_scope": row["batch_scope"] or ("global" if row["batch_size"] else ""),
        "xla": row["xla"] or "",
    }
    doubt = row["value_kind"] == "approx"
    row["doubtful"] = str(doubt)
    row["doubt_reason"] = "approximate value ('~' in the source)" if doubt else ""
    row["hardware"] = display_name(row)
    return row


def _lambda_rows() -> list[dict[str, str]]:
    out = []
    for i, (label, key, col, p, value, batch) in enumerate(LAMBDA_ROWS, start=1):
        base = col == "bert_base_squad"
        half = p == "fp16"
        precision = "mixed_float16" if half else ("tf32" if key != "v100" else "float32")
        note = _TF32 if precision == "tf32" else ""
        out.append(_row(
            "LAMBDA-DLB-BERT", i, source_url=_LAMBDA.format(p=p), hardware_label=label, hardware_key=key,
            hardware_count="1", count_unit="gpu", model="bert_base" if base else "bert_large",
            model_label=f"BERT-{'base' if base else 'large'} uncased, SQuAD v1.1 fine-tuning ({col})",
            batch_size=batch, batch_label=batch, precision=precision,
            precision_label="amp (fp16 mixed)" if half else "'fp32' column", metric="examples_per_s", value=value,
            value_kind="exact", notes=_LAMBDA_NOTE.format(p=p, label=label, col=col, prec=note).strip(),
        ))  # fmt: skip
    return out


def _nv_rows() -> list[dict[str, str]]:
    out = []
    for i, (key, label, table, seq, prec, col, value, blabel, batch) in enumerate(NV_ROWS, start=1):
        note = _NV_NOTE.format(commit=NV_COMMIT[:12], table=table, seq=seq, col=col, batch=blabel)
        if not batch:
            note += " That column repeats the accumulated global batch on the DGX-1 table, so no per-GPU batch is kept."
        out.append(_row(
            "NV-DLE-PT-BERT", i, hardware_label=label, hardware_key=key, hardware_count="1", count_unit="gpu",
            batch_size=batch, batch_scope="per_replica" if batch else "unknown", batch_label=blabel,
            shape=f"seq {seq}", precision=prec, precision_label=col.split("(")[0].removeprefix("Throughput - "),
            metric="examples_per_s", value=value, value_kind="exact", notes=note,
        ))  # fmt: skip
    return out


def _keras_rows() -> list[dict[str, str]]:
    out = []
    for i, (fw, fw_label, fw_version, col, ms, extra) in enumerate(KERAS_ROWS, start=1):
        note = _KERAS_NOTE.format(commit=KERAS_IO_COMMIT[:12], kb=KERAS_BENCH_COMMIT[:12], col=col, extra=extra)
        out.append(_row(
            "KERAS-IO-BENCH", i, hardware_label="NVIDIA A100 40GB (GCE a2-highgpu-1g)", hardware_key="a100",
            hardware_count="1", count_unit="gpu", framework=fw, framework_version=fw_version,
            framework_label=fw_label, batch_size="32", batch_label="32", metric="step_time_ms", value=ms,
            value_kind="exact", notes=note.strip(),
        ))  # fmt: skip
    return out


def _llmc_rows() -> list[dict[str, str]]:
    out = []
    for i, (model, mlabel, key, hlabel, path, quote, ms, kind, b, d, batch) in enumerate(LLMC_ROWS, start=1):
        pub = quote.rsplit(" in ", 1)[1].removesuffix("/iter")
        note = _LLMC_NOTE.format(path=path, commit=LLMC_COMMIT[:12], quote=quote, b=b, d=d, batch=batch, pub=pub)
        out.append(_row(
            "LLMC-GPT2", i, source_url=_gh("karpathy/llm.c", LLMC_COMMIT, path), hardware_label=hlabel,
            hardware_key=key, hardware_count="8", count_unit="gpu", model=model, model_label=mlabel,
            batch_size=batch, batch_label=f"{d} tokens/step ({b} × 1024 per GPU per micro-step)",
            metric="step_time_ms", value=ms, value_kind=kind, notes=note,
        ))  # fmt: skip
    return out


def transformer_rows() -> list[dict[str, str]]:
    """Every published BERT/GPT-2 row, in a fixed order (sources as listed in SOURCES)."""
    return [*_lambda_rows(), *_nv_rows(), *_keras_rows(), *_llmc_rows()]


if __name__ == "__main__":
    for r in transformer_rows():
        print(
            f"{r['ref_id']}\t{r['hardware']}\t{r['model']}\t{r['shape']}\t{r['precision']}\t{r['metric']}={r['value']}"
        )
