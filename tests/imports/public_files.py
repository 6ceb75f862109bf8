"""The public files of docs/importing.md in small copies the tests write (values invented, each tool's shape and
quirks kept), plus ML.ENERGY's leaderboard JSON and lambdal's PyTorch/TensorFlow family with a batch-size table —
the "many files dropped at once" of issue 37. Used by tests/imports/test_import_many_files.py, the History e2e test
and bench/screenshot_history_imports.py (which put this folder on sys.path, as pytest does for its tests)."""

from __future__ import annotations

import json
from pathlib import Path

from test_import_many_files import BS, TF
from test_import_mlenergy import DOC, NAME
from test_import_public_files2 import ALGO, BENCH, MLLOG, REPORT
from test_import_real_files import DAWN_JSON, DAWN_TSV, SMI, VENDOR

META = {"gpu_model_name": "Tesla V100-SXM2-16GB", "gpu_count": 8, "python_version": "3.8.10"}
FILES: dict[str, str] = {
    "pytorch-train-throughput-fp32.csv": VENDOR,
    "pytorch-train-bs-fp32.csv": BS,
    "tensorflow-train-throughput-fp32.csv": TF,
    "fastai_resnet50_p3_16_machine_pytorch.tsv": DAWN_TSV,
    "fastai_resnet50_p3_16_machine_pytorch.json": json.dumps(DAWN_JSON),
    "8xA100_80GB_SXM4_monitor.csv": SMI,
    "benchmark.json": json.dumps(BENCH),
    "benchmark_report.json": json.dumps(REPORT),
    "result_0.txt": MLLOG,
    "eval_measurements.csv": ALGO,
    "meta_data_0.json": json.dumps(META),
    NAME: json.dumps(DOC, indent=2),
}


def write_all(folder: Path, names: list[str] | None = None) -> list[Path]:
    """The files (all, or `names`) written into `folder`; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in names or list(FILES):
        path = folder / name
        path.write_text(FILES[name], encoding="utf-8")
        paths.append(path)
    return paths
