"""What kind of results file this is, and a first mapping for it: the shape (long, wide, JSON, time series,
telemetry), a role per column, a unit per value column, and a few well-known formats recognised by their
header with their mapping pre-filled. Every guess is shown to the user, who corrects it.

Pure pandas; no streamlit.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pandas as pd

from engine.imports.facts.import_mapping import ImportMapping, ValueSpec
from engine.imports.facts.metric_names import metric_for
from engine.imports.facts.system_names import names_device
from engine.imports.facts.units import (
    RATE_WORDS,
    is_score,
    normalise_unit,
    score_unit,
    share_unit,
    split_per_device,
    tool_units,
    unit_from_header,
)
from engine.imports.read.foreign_text import MISSING_MARKERS, epoch_dates, is_date, split_number, unreadable_dates
from engine.imports.read.known_formats import KNOWN, accelerators_win
from engine.imports.shape.time_axis import per_step, time_axis

_HINTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("batch", ("batch",)),
    ("nodes", ("number_of_nodes", "num_nodes", "node_count", "# of nodes", "n_nodes")),
    ("count", ("# of acc", "gpus", "num_gpu", "n_gpu", "devices", "count", "accelerators", "chips", "# gpu")),
    ("price", ("price", "costperhour", "cost per hour", "usd/h", "$/h", "cost")),
    ("power", ("power", "watt")),
    ("date", ("date", "timestamp", "created", "day")),
    ("step", ("epoch", "step", "iteration", "iter")),
    ("time", ("hours", "elapsed", "seconds", "minutes", "wall", "time", "duration")),
    ("precision", ("precision", "dtype", "datatype")),
    ("framework", ("framework", "software", "library", "version")),
    ("unit", ("unit",)),
    ("metric", ("metric", "measure", "quantity")),
    ("model", ("model", "network", "benchmark", "workload", "architecture", "task")),
    ("system", ("system", "platform", "config", "setup", "server", "submission")),
    ("device", ("accelerator", "gpu", "device", "hardware", "chip", "tpu", "processor", "name")),
)
_TEXT_ROLES = {"system", "device", "model", "metric", "unit", "precision", "framework", "date"}
_SETTING_PREFIXES = {"env", "environment", "config", "meta", "host", "system", "hardware", "software", "settings"}
_SINGLE = {"device", "system", "count", "nodes", "batch", "model", "step", "date", "metric", "unit", "time"}
_NUMBER_ROLES = {"count", "nodes", "batch", "price", "power", "time", "step", "cost"}
_HOURLY = re.compile(r"hour|/\s*h\b|per\s*h|\bhr\b|hourly", re.IGNORECASE)


def _present(col: pd.Series) -> pd.Series:
    return col[~col.str.lower().isin(MISSING_MARKERS)]


def cell_kind(col: pd.Series) -> tuple[str, str]:
    """("number", unit) when most filled cells are numbers (sharing one unit, maybe ''), ('date', ''),
    or ('text', '')."""
    cells = _present(col.head(200).astype(str))
    if cells.empty:
        return "empty", ""
    split = cells.map(lambda c: split_number(c.replace("\u202f", "")))
    ok = split.dropna()
    if len(ok) > 0.5 * len(cells):  # a few bad cells are reported, not a reason to call the column text
        units = pd.Series([u for _, u in ok]).value_counts()
        return "number", str(units.index[0])
    if cells.map(is_date).mean() >= 0.8:
        return "date", ""
    return "text", ""


# Context columns of the long CSV `results import --mapping` writes: text kept with each row, never a value.
_LONG_CONTEXT = {"memory_gb", "form_factor", "provider", "host", "hardware_key", "note", "variant"}


# A "…_count" that counts something other than devices (AlgoPerf's preemption_count) is never the device count.
_NOT_DEVICES = ("preemption", "retry", "restart", "step", "eval", "example", "sample", "token", "param", "epoch",
                "error", "iteration", "warmup", "core", "socket", "thread", "processor", "cpu",
                "element", "byte", "request")  # fmt: skip  # nccl-tests' `count (elements)`: data, not devices


# A measured average (ML.ENERGY's avg_batch_size 7.998) is a result, never a setting that must be whole.
_MEASURED = re.compile(r"(?:^|[^a-z])(?:avg|mean|average|median)(?:[^a-z]|$)")


def _hinted(word: str, low: str) -> bool:
    """A hint word in a header; a short one only where a word starts (`tpu`, never the one in `output`)."""
    return word in low if len(word) > 3 else bool(re.search(rf"(?<![a-z]){re.escape(word)}", low))


def role_by_name(name: str, kind: str) -> str:
    low = name.lower()
    if low in _LONG_CONTEXT:
        return "label"
    measured = bool(_MEASURED.search(low))
    for role, words in _HINTS:
        if any(_hinted(w, low) for w in words):
            if measured and role in ("batch", "count", "nodes"):
                continue
            if (kind == "number" and role in _TEXT_ROLES - {"date"}) or (kind != "number" and role in _NUMBER_ROLES):
                continue
            if role == "count" and any(w in low for w in _NOT_DEVICES):
                continue
            return role
    return ""


def _median(col: pd.Series) -> float:
    nums = pd.to_numeric(_present(col.head(200).astype(str)).str.replace(",", ""), errors="coerce")
    return float(nums.median()) if nums.notna().any() else float("nan")


def _system_like(col: pd.Series) -> bool:
    return bool(col.head(100).str.contains(r"(?:^|\s)\d+\s*[x×]\s*[A-Za-z]|\(", regex=True).any())


# Measures a tool's documentation names by an abbreviation (nccl-tests' PERFORMANCE.md, torch all_reduce_bench):
# each a metric of its own, never a model's column in a wide table
_NAMED_MEASURES = {"busbw": "bus bandwidth", "algbw": "algorithm bandwidth"}
# Words that name a statistic of a measure, not another measure
_STATISTICS = {"mean", "avg", "average", "median", "min", "max", "std", "stddev", "stdev", "quantiles", "percentile"}
_HARDWARE_WORD = re.compile(r"accelerator|gpu|device|hardware|chip|tpu|processor")


_NAME_WORDS_MAX = 8  # "NVIDIA GeForce RTX 4090 Laptop GPU (host-3)": a longer or multi-line cell is prose


def _names_devices(col: pd.Series) -> bool:
    """Whether the column's cells name devices; a prompt or an answer that mentions one ("Is the A100 …?") does not."""
    names = [v for v in _present(col.head(50).astype(str)).unique()[:20] if len(v.split()) <= _NAME_WORDS_MAX]
    return any(names_device(v) for v in names if "\n" not in v)


def guess_roles(raw: pd.DataFrame, headerless: bool) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """A role per column and each column's (cell kind, cell unit)."""
    cols = [c for c in raw.columns if c != "_row"]
    kinds = {c: cell_kind(raw[c]) for c in cols}
    kinds.update({c: ("number", "%") for c in cols if kinds[c] == ("number", "") and score_unit(c, raw[c])})
    roles: dict[str, str] = {}
    for c in cols:
        kind, unit = kinds[c]
        role = "" if headerless else role_by_name(c, kind)
        if role in ("step", "time") and per_step(c):
            role = ""  # 'step time [ms]': a measured time per step, not a series' axis
        low = c.lower()
        if kind == "number" and "count" in low and any(w in low for w in _NOT_DEVICES):
            role = "label"  # preemption_count, step_count: kept, never a device count nor a result
        if role in ("device", "system"):
            role = "system" if _system_like(raw[c]) else "device"
        if role == "device" and not _HARDWARE_WORD.search(low) and not _names_devices(raw[c]):
            role = "label"  # a bare `name` (a run's, a SUT's) is the device only when it names one
        if role == "date" and kind == "number" and epoch_dates(raw[c]) is None:
            role = "label"  # `print_timestamps : 0`, a flag named like a date: neither a date nor a result
        if role == "date" and kind == "text" and unreadable_dates(raw[c]):
            role = "label"  # `Date: Tue Feb  3 03:39:14 PM AEST 2026` (date(1)'s zone names): kept as text, not refused
        if not role:
            role = {"number": "value", "date": "date", "empty": "ignore"}.get(kind, "label")
        if role == "price" and not _HOURLY.search(c) and _median(raw[c]) >= 200:
            role = "cost"  # 'price' 6037.5 next to a GPU is what it costs to buy, not an hourly rate
        if role in _SINGLE and role in roles.values():
            role = "value" if kind == "number" else "label"  # one column per single role
        roles[c] = role
    time_axis(roles, kinds, lambda c: role_by_name(c, "number") == "time")
    accelerators_win(roles, kinds)
    if "device" not in roles.values() and "system" not in roles.values():
        # A column is taken for the device only when it names one; otherwise History asks (a backend, a weight
        # file, a run's status or a prompt in the first text column is not the hardware).
        text = [c for c in cols if roles[c] == "label" and kinds[c][0] == "text" and _names_devices(raw[c])]
        if text:
            roles[text[0]] = "system" if _system_like(raw[text[0]]) else "device"
    return roles, kinds


def value_specs(roles: dict[str, str], kinds: dict[str, tuple[str, str]], shape: str) -> dict[str, ValueSpec]:
    """What each value column measures: in a wide table without a model column the columns are models
    (the metric comes from the unit); otherwise they are metrics of the row's model."""
    has_model, has_metric = "model" in roles.values(), "metric" in roles.values()
    specs = {}
    for c in (c for c, r in roles.items() if r == "value"):
        base, unit = unit_from_header(c)
        unit, per_device = split_per_device(unit or normalise_unit(kinds[c][1]) or share_unit(c))
        each = " per device" if per_device else ""  # 'Throughput (T/s/GPU)': already one device's rate
        if has_metric:
            specs[c] = ValueSpec("", unit)
        elif base.strip().lower() in _NAMED_MEASURES:
            specs[c] = ValueSpec(_NAMED_MEASURES[base.strip().lower()], unit)
        elif shape == "wide" and not has_model and own_rate_name(c, "Throughput") == "Throughput":
            specs[c] = ValueSpec((metric_for(unit, c) or "value") + each, unit, model=base)
        else:
            metric = base if (share_unit(c) or is_score(c)) and unit == "%" else metric_for(unit, c) or base
            specs[c] = ValueSpec(own_rate_name(c, metric) + each, unit)
    return _own_names(specs) if not has_metric and (shape != "wide" or has_model) else specs


# A unit written as a symbol in a key (`tok_s`, `img/sec`, `images_per_s`): no name of the file's own.
_UNIT_ABBREVIATIONS = {"tok", "toks", "img", "imgs", "seq", "seqs", "s", "sec", "t", "i", "per"}


def own_rate_name(column: str, metric: str) -> str:
    """A rate keeps the name its file gives it ('train_samples_per_second' → 'train samples per second',
    LoadGen's 'Samples per second', vLLM's 'output_throughput'): which of several rates it is, in the words the
    user knows. Only a header that is the bare word or a unit symbol ('Throughput', 'images/sec') takes the
    generic `Throughput`; the family (examples/s, tokens/s) is the unit's, kept for Compare."""
    if metric != "Throughput":
        return metric
    own = _spaced_name(column)
    names_rate = unit_from_header(own)[1] or "throughput" in own.lower()  # not a wide table's model ('GPT-J (tok/s)')
    words = set(_measure(column).split())
    spelled = bool(words & {"second", "seconds"})  # 'Samples per second': a label in words, the file's own
    rest = words - _UNIT_ABBREVIATIONS - set(RATE_WORDS) - {"throughput"}  # `mean_tok_s`, `images_per_s`: a unit
    return own if names_rate and "/" not in own and (rest or spelled) else metric


def _own_names(specs: dict[str, ValueSpec]) -> dict[str, ValueSpec]:
    """Columns of one row that would share one metric and unit (`true_gen_throughput`, `avg_prompt_speed`, all
    tokens/s) are different measurements: each keeps its own name, never pooled into one `Throughput` bar."""
    measures: dict[tuple[str, str], set[str]] = {}
    for c, spec in specs.items():
        measures.setdefault((spec.metric, spec.unit), set()).add(_measure(c))
    return {
        c: replace(spec, metric=_spaced_name(c)) if len(measures[(spec.metric, spec.unit)]) > 1 else spec
        for c, spec in specs.items()
    }


def _spaced_name(column: str) -> str:
    return " ".join(re.split(r"[_\s]+", unit_from_header(column)[0])).strip()


def _measure(column: str) -> str:
    """What a column measures, its statistic left out: `mean_tok_s` and `median_tok_s` are one measure."""
    words = re.split(r"[^a-z0-9]+", unit_from_header(column)[0].lower())
    return " ".join(w for w in words if w and w not in _STATISTICS and not re.fullmatch(r"p\d+", w))


def detect_shape(roles: dict[str, str], kinds: dict[str, tuple[str, str]], headerless: bool, is_json: bool) -> str:
    values = [c for c, r in roles.items() if r == "value"]
    if headerless and any(kinds[c][1] for c in values):
        return "telemetry"
    if ("time" in roles.values() or "step" in roles.values()) and any(
        re.search(r"acc|loss|top[-_ ]?[15]", c, re.IGNORECASE) for c in values
    ):
        return "timeseries"
    if is_json:
        return "json"
    return "wide" if len(values) > 1 else "long"


def guess_mapping(raw: pd.DataFrame, headerless: bool = False, is_json: bool = False, name: str = "") -> ImportMapping:
    """A first mapping: roles, shape, units, and a known format's pre-filled mapping when the header matches."""
    roles, kinds = guess_roles(raw, headerless)
    for c, r in roles.items():  # a number under a run's config or environment is a setting, not a result
        if is_json and r == "value" and c.split(".")[0].lower() in _SETTING_PREFIXES and "." in c:
            roles[c] = "label"
    shape = detect_shape(roles, kinds, headerless, is_json)
    if shape != "timeseries" and "step" not in roles.values():  # 'Time to train (min)' is a result, not an axis
        roles = {c: "value" if r == "time" else r for c, r in roles.items()}
        shape = detect_shape(roles, kinds, headerless, is_json)
    m = ImportMapping(shape=shape, roles=roles, values=value_specs(roles, kinds, shape))
    if shape == "timeseries":
        tcol = m.column("time")
        m.time_unit = unit_from_header(tcol)[1] if tcol and unit_from_header(tcol)[1] in ("s", "min", "h") else "s"
    header = {c.lower() for c in roles}
    for known, test, fill in KNOWN:
        if test(header):
            m.fmt = known
            fill(m)
            break
    if shape == "telemetry":
        _telemetry_numbers(raw, m, kinds)
    tool_units(m, name)  # lambdal's model columns: images/s, sequences/s, tokens/s … as the tool reports them
    return m


def _telemetry_numbers(raw: pd.DataFrame, m: ImportMapping, kinds: dict[str, tuple[str, str]]) -> None:
    """Bare numbers in an nvidia-smi log: a small whole number (0–15, the GPU index) is an id; 16–120 is
    what `temperature.gpu` prints without a unit (a guess the user sees and can change)."""
    for c in m.columns("value"):
        if kinds[c][1]:
            continue
        nums = pd.to_numeric(_present(raw[c].astype(str)), errors="coerce").dropna()
        if len(nums) and (nums % 1 == 0).all() and nums.max() <= 15:
            m.roles[c] = "label"
            m.values.pop(c, None)
        elif len(nums) and nums.between(0, 120).all() and nums.nunique() > 1:
            m.values[c] = ValueSpec("Temperature", "C")
    m.fmt = "telemetry log (nvidia-smi --format=csv,noheader style)"
