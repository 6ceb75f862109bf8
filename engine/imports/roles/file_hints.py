"""What a file's name and folder say that its header does not (issue 43: units wherever the file keeps them):
the device and count (`8xMI300X/…`, `…-rtx3090.csv`, `RTX 3090_1_gpus__half_…`), the precision (`fp16`, `half`,
`amp`), the framework (`pytorch`), that a table holds throughputs (`…-throughput-….csv`: samples/s) or times per
step (a `…_model_train_benchmark.csv` of pytorch-gpu-benchmark: milliseconds per iteration, one column per model),
and any other setting a folder names (`Offline`). Each reading names its source in the mapping's `said`.

Pure Python; no pandas, no streamlit.
"""

from __future__ import annotations

import re

from engine.imports.facts.import_mapping import ImportMapping, ValueSpec
from engine.imports.facts.system_names import names_device, parse_system
from engine.imports.facts.units import unit_from_header
from engine.imports.roles.settings import SETTING, precision_word

THROUGHPUT_DEFAULT_UNIT = "samples/s"  # a file that says "throughput" and no unit: work items per second
_FRAMEWORKS = {"pytorch": "PyTorch", "torch": "PyTorch", "tensorflow": "TensorFlow", "tf": "TensorFlow",
               "jax": "JAX", "mxnet": "MXNet", "paddle": "PaddlePaddle", "onnx": "ONNX Runtime"}  # fmt: skip
# A device named in a file name without a table entry is still a device when it reads like an accelerator.
_ACCELERATOR = re.compile(
    r"^(RTX|GTX|TITAN|QUADRO|TESLA|APPLE M\d|A\d{2,}|H\d{2,}|L\d{1,2}S?$|B\d{3}|V100|P100|T4$|MI\d{2,}|TPU|GAUDI)", re.I
)
_MLPERF_SCENARIOS = {"offline": "Offline", "server": "Server", "singlestream": "SingleStream",
                     "multistream": "MultiStream", "interactive": "Interactive"}  # fmt: skip
# pytorch-gpu-benchmark's `{device}_{count}_gpus_{precision}_model_{train|inference}_benchmark.csv`: one column per
# model, one row per timed iteration, each cell the milliseconds of one step (its `durations.append(… * 1000)`).
_STEP_TIMES_MS = re.compile(r"_model_(train|inference)_benchmark$", re.IGNORECASE)


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def _device_in(text: str) -> str:
    """'8x MI300X' / 'RTX 3090' named in `text` (a whole name, else any run of 1–3 of its words), or ""."""
    words = [w for w in re.split(r"[\s_\-/]+", text) if w]
    spans = [text] + [" ".join(words[i : i + n]) for n in (3, 2, 1) for i in range(len(words) - n + 1)]
    for span in spans:
        read = parse_system(span)
        if read.hardware_key or (names_device(span) and _ACCELERATOR.match(read.device_model or "")):
            # A file whose name opens with one device's own name (`NVIDIA_TITAN_RTX_…`, as torch names it) ran on that
            # one; a device further in (`mlperf_…_rtx4090_…`, `dgx-h100`) says nothing of the count.
            one = not read.provider and "tpu" not in read.device_model.lower()
            count = read.device_count or _gpus_count(text) or (1 if one else None)
            return f"{f'{count}x ' if count else ''}{read.device_model} {read.form_factor}".strip()
    return ""


def _gpus_count(text: str) -> int | None:
    found = re.search(r"(?:^|[^0-9])(\d{1,4})[ _-]?gpus?(?:[^a-z]|$)", text.lower())
    return int(found.group(1)) if found else None


def _say(m: ImportMapping, role: str, value: str, where: str) -> None:
    m.constants[role] = value
    m.said.append(f"{role.removeprefix(SETTING)} {value} from {where}")


def name_hints(m: ImportMapping, name: str, folder: str = "") -> None:
    """Fill what `name` (and `folder`, the path above it where known) says and the file does not."""
    stem = name.rsplit(".", 1)[0]
    words = set(_words(stem))
    _units_by_name(m, stem, words)
    if not (m.column("system") or m.column("device")) and "device" not in m.constants:
        for text, where in [(stem, "the file name"), *[(p, f"the folder {p!r}") for p in reversed(_parts(folder))]]:
            device = _device_in(text)
            if device:
                _say(m, "device", device, where)
                break
    framework = next((_FRAMEWORKS[w] for w in _FRAMEWORKS if w in words), "")
    if framework and not m.column("framework") and "framework" not in m.constants:
        _say(m, "framework", framework, "the file name")  # PyTorch and TensorFlow files are never one bar
    precision = next((precision_word(w) for w in _words(stem) if precision_word(w)), "")
    if precision and not m.column("precision") and "precision" not in m.constants:
        _say(m, "precision", precision, "the file name")
    batch = re.search(r"(?:^|[^a-z0-9])(?:bs|batch|batchsize|batch_size)[_-]?(\d+)(?:[^0-9]|$)", stem.lower())
    if batch and not m.column("batch") and "batch" not in m.constants:
        _say(m, "batch", batch.group(1), "the file name")
    for part in _parts(folder):
        scenario = _MLPERF_SCENARIOS.get(part.lower())
        if scenario and f"{SETTING}scenario" not in m.constants:
            _say(m, f"{SETTING}scenario", scenario, f"the folder {part!r}")


def _parts(folder: str) -> list[str]:
    return [p for p in re.split(r"[\\/]+", folder) if p and p not in (".", "..")]


def _units_by_name(m: ImportMapping, stem: str, words: set[str]) -> None:
    """A throughput table's unitless columns are samples/s; a step-times table's are milliseconds per step."""
    step_times = bool(_STEP_TIMES_MS.search(stem)) or bool(words & {"ms", "msec", "millis"})
    for c, spec in list(m.values.items()):
        if spec.unit or m.column("metric"):
            continue
        model = spec.model or ("" if m.column("model") else unit_from_header(c)[0])
        if "throughput" in words:
            m.values[c] = ValueSpec("Throughput", THROUGHPUT_DEFAULT_UNIT, model, "")
        elif step_times:
            m.values[c] = ValueSpec("Time per step", "ms", model, "")
    if step_times and m.values:
        m.said.append("unit ms per step from the file name (one timed iteration per row)")
