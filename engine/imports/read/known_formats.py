"""Well-known results formats, recognised by their header, with their mapping pre-filled (tf_cnn_benchmarks
tables, MLPerf Training results, result logs and MLPerf-style system summaries, AlgoPerf and DAWNBench logs, the
ML.ENERGY leaderboard), and the rule that an
accelerator column is the device wherever a summary also names its host. Used by engine.imports.shape.shapes.

Pure Python; no pandas, no streamlit.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.imports.facts.import_mapping import ImportMapping, ValueSpec

_HOST_WORDS = ("host", "server", "processor", "cpu", "socket", "system_name", "node")


def accelerators_win(roles: dict[str, str], kinds: dict[str, tuple[str, str]]) -> None:
    """MLPerf-style summaries: accelerator columns (accelerator_model_name, accelerator_count) give the device
    and the count; host/server/processor columns (host_processor_model_name, host_processors_per_node, the
    system name) are kept as labels, never the device, the model or the count."""
    leaf = {c: c.split(".")[-1].lower() for c in roles}
    names = [c for c in roles if "accelerator" in leaf[c] and kinds[c][0] == "text"]
    counts = [
        c for c in roles if "accelerator" in leaf[c] and kinds[c][0] == "number"
        and any(w in leaf[c] for w in ("count", "per_node", "num", "accelerators"))
    ]  # fmt: skip
    if not names:
        return
    for c in roles:
        if (
            any(w in leaf[c] for w in _HOST_WORDS)
            and roles[c] in ("device", "system", "model", "count", "value")
            or roles[c] in ("device", "system")
            or (counts and roles[c] == "count")
        ):
            roles[c] = "label"
    roles[names[0]] = "device"
    if counts:
        roles[counts[0]] = "count"


def _has(header: set[str], *names: str) -> bool:
    return all(n.lower() in header for n in names)


def _tf_cnn(m: ImportMapping) -> None:
    m.roles.update({"Platform": "system", "GPUs": "count", "Model": "model"})
    for c in m.columns("value"):
        if c != "Images/sec":
            m.roles[c] = "batch" if "batch" in c.lower() else "label"
    m.values = {"Images/sec": ValueSpec("Throughput", "images/s")}


def _mlperf(m: ImportMapping) -> None:
    for c, r in list(m.roles.items()):
        low = c.lower()
        if low == "accelerator":
            m.roles[c] = "device"
        elif low in ("# of accelerators", "accelerators", "# accelerators"):
            m.roles[c] = "count"
        elif r in ("system", "device", "model", "count") and c != "System":
            m.roles[c] = "label"
    m.roles["System"] = "label"
    m.values = {c: ValueSpec("Time to train", "min", c, "lower") for c in m.columns("value")}
    m.shape = "wide"


def _dawnbench(m: ImportMapping) -> None:
    m.roles.update({c: r for c, r in (("epoch", "step"), ("hours", "time")) if c in m.roles})
    m.time_unit = "h"
    m.values = {c: ValueSpec("Top-5 accuracy" if "5" in c else "Top-1 accuracy", "%") for c in m.columns("value")}
    m.shape = "timeseries"


def _mlperf_summary(m: ImportMapping) -> None:
    """Per-benchmark scores of an MLPerf Training-style summary: minutes to train, lower is better. The submission
    checker's table (summary.csv/json of MLPerf Inference and Training) says each Result's unit in its `Units`
    column (Samples/s, Queries/s, Tokens/s, ms): there Result is the one value, in that unit, and the other numbers
    (`errors`, `inferred`) are the checker's flags."""
    if m.column("unit"):
        result = next((c for c in m.columns("value") if c.split(".")[-1].lower() == "result"), "")
        for c in m.columns("value"):
            m.roles[c] = "value" if c == result else "label"
        m.values = {result: ValueSpec()} if result else {}
        m.shape = "long"
        return
    for c in m.columns("value"):
        spec = m.values.get(c) or ValueSpec()
        if not spec.unit:
            m.values[c] = ValueSpec("Time to train", "min", c.split(".")[-1], "lower")
    m.shape = "wide"


def _mllog(m: ImportMapping) -> None:
    """An MLPerf Training result log read by engine.imports.read.mllog: eval accuracy over minutes since run_start."""
    m.roles.update({c: r for c, r in (("minutes", "time"), ("epoch", "step")) if c in m.roles})
    m.time_unit, m.shape = "min", "timeseries"


def _algoperf(m: ImportMapping) -> None:
    """AlgoPerf's eval_measurements.csv: `score` repeats the train time and `*/num_examples` are split sizes —
    neither is a result."""
    for c in m.roles:
        if c == "score" or c.endswith("num_examples"):
            m.roles[c] = "label"
            m.values.pop(c, None)


def _mlperf_system(m: ImportMapping) -> None:
    """An MLPerf system description holds no result: its capacities and clocks are specifications, not values."""
    for c in m.columns("value"):
        if any(w in c.split(".")[-1] for w in ("capacity", "memory", "frequency", "count")):
            m.roles[c] = "label"
            m.values.pop(c, None)
    _mlperf_summary(m)


def system_description(settings: dict[str, str], stem: str = "<system>") -> str | None:
    """What to say of an MLPerf system description loaded on its own (`systems/<name>.json`): which system it
    is and where its results are — it holds none; None for other settings files."""
    name = (settings.get("accelerator_model_name") or "").strip()
    if not name or "number_of_nodes" not in settings:
        return None
    try:
        count = f"{int(float(settings['number_of_nodes']) * float(settings.get('accelerators_per_node') or 1))} × "
    except ValueError:
        count = ""
    system = settings.get("system_name") or "this system"
    return (
        f"an MLPerf system description ({system}: {count}{name}) — it holds no results. Load a "
        f"results/{stem}/<benchmark>/result_N.txt log instead: each carries this description in its "
        ":::SYSJSON line, so the device is read from it."
    )


def _report(m: ImportMapping) -> None:
    """A nested report already flattened by engine.imports.read.foreign_json.report_records: its guess stands, but
    its bookkeeping is never the system (a report with no environment names no device: the page asks)."""
    m.roles.update({c: "label" for c in ("iterations", "backend") if c in m.roles})
    if "iteration" in m.roles:  # each measured iteration's latency: a series over its iterations
        m.roles["iteration"] = "step"


# ML.ENERGY leaderboard (github.com/ml-energy/leaderboard, public/data/models/*.json): one file per model × task,
# `configurations[]` of GPU × count × batch (vLLM's max_num_seqs for LLMs, batch_size for diffusion), the model
# and precision at the top level.
_MLENERGY_FIXED = {
    "avg_power_watts": ValueSpec("Power draw", "W", "", "lower"),
    "batch_latency_s": ValueSpec("Batch latency", "s", "", "lower"),
    "avg_batch_size": ValueSpec("Average batch size (measured)", "", "", ""),
    "avg_output_len": ValueSpec("Average output length", "tokens", "", ""),
}
_MLENERGY_ROLES = {"gpu_model": "device", "num_gpus": "count", "max_num_seqs": "batch", "batch_size": "batch",
                   "weight_precision": "precision", "workload": "model"}  # fmt: skip


def _mlenergy_spec(column: str) -> ValueSpec | None:
    """What an ML.ENERGY configuration's number measures, from its name; None for a setting (image_height …)."""
    if column in _MLENERGY_FIXED:
        return _MLENERGY_FIXED[column]
    if m := re.fullmatch(r"(?:output_)?throughput_([a-z]+)_per_sec", column):
        return ValueSpec("Throughput", f"{m.group(1)}/s", "", "higher")  # tokens/s, images/s, videos/s
    if m := re.fullmatch(r"energy_per_([a-z]+)_joules", column):
        return ValueSpec(f"Energy per {m.group(1)}", "J", "", "lower")
    if m := re.fullmatch(r"(median|p\d+)_itl_ms", column):
        return ValueSpec(f"Inter-token latency {m.group(1)}", "ms", "", "lower")
    return None


_LAYOUT = {"tensor_parallel": "TP", "expert_parallel": "EP", "data_parallel": "DP", "pipeline_parallel": "PP",
           "ring_degree": "ring", "ulysses_degree": "ulysses"}  # fmt: skip
_SYSTEM_RULE = r"^(?P<model>.+?)(?: · (?P<variant>.+))?$"  # 'H100 · TP2 EP2': the GPU, then its parallel layout


def with_facts(facts: dict, record: dict) -> dict:
    """One record of a document's row list with the document's own facts (the record's value wins). ML.ENERGY
    names the model and the task it served at the top (`model_id`, `task`): together they are the workload, so one
    model's chat and GPQA runs are never pooled; each configuration's parallel layout (degrees above 1) joins its
    GPU as a `system` name whose variant it is ('H100 · TP2'), so two layouts of one GPU × count × batch are never
    one bar without ⚠."""
    out = {**facts, **record}
    if facts.get("model_id") and facts.get("task"):
        out.setdefault("workload", f"{facts['model_id']} · {facts['task']}")
    layout = out.get("parallelization")
    if out.get("gpu_model") and isinstance(layout, dict):
        degrees = [f"{_LAYOUT.get(k, k)}{v}" for k, v in sorted(layout.items()) if isinstance(v, int) and v > 1]
        out.setdefault("system", " · ".join([str(out["gpu_model"]), *([" ".join(degrees)] if degrees else [])]))
    return out


def _mlenergy(m: ImportMapping) -> None:
    """Per GPU × count × batch rows; measured averages (avg_batch_size 7.998) are results, not the batch."""
    specs = {c: spec for c in m.roles if (spec := _mlenergy_spec(c))}
    for c in m.roles:
        m.roles[c] = _MLENERGY_ROLES.get(c, "value" if c in specs else "label")
    if "system" in m.roles:  # the GPU with its parallel layout (`with_facts`)
        m.roles.update({"system": "system", "gpu_model": "label"})
        m.system_rules = [_SYSTEM_RULE]
    if "max_num_seqs" in m.roles and "batch_size" in m.roles:
        m.roles["batch_size"] = "label"
    if "workload" not in m.roles and "model_id" in m.roles:
        m.roles["model_id"] = "model"
    m.values, m.shape = specs, "json"


KNOWN: tuple[tuple[str, Callable[[set[str]], bool], Callable[[ImportMapping], None]], ...] = (
    ("ML.ENERGY leaderboard", lambda h: _has(h, "gpu_model", "num_gpus") and any("throughput_" in x for x in h),
     _mlenergy),
    ("nested benchmark report (optimum-benchmark style)",
     lambda h: "iterations" in h and any("latency median" in x for x in h), _report),
    ("MLPerf-style system summary", lambda h: any(x.split(".")[-1] == "accelerator_model_name" for x in h)
     and any("host_processor" in x for x in h), _mlperf_system),
    ("MLPerf Training log (:::MLLOG)", lambda h: _has(h, "minutes", "eval_accuracy", "benchmark"), _mllog),
    ("AlgoPerf eval measurements", lambda h: _has(h, "accumulated_submission_time", "global_step"), _algoperf),
    ("tf_cnn_benchmarks table", lambda h: _has(h, "platform", "model", "gpus", "images/sec"), _tf_cnn),
    ("MLPerf Training results", lambda h: _has(h, "system", "accelerator") and any("accelerators" in x for x in h), _mlperf),
    ("DAWNBench training log", lambda h: _has(h, "epoch", "hours") and any("accuracy" in x for x in h), _dawnbench),
)  # fmt: skip
