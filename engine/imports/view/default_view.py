"""What History shows before anyone touches a control: never a bar that pools what differs.

Loaded rows get a `configuration` column — everything that changes speed and differs among them (device, device
count, memory, form factor, framework, precision, batch): '8× H100 · 80GB · SXM5' — and, where rows say how many
devices ran, a per-device rate beside each rate ('Throughput per device (images/s)' = the row's rate ÷ its count). The
default chart is then the rate per device for each configuration and workload; a bar that still joins rows of
several configurations (a variant, a backend, a workload left out of Group by) is listed with what differs.
Pure pandas; no streamlit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pandas as pd

from engine.imports.roles.settings import SETTING, setting_columns
from engine.results.history import group_label, higher_is_better, is_derived, metric_columns, metric_title

CONFIGURATION = "configuration"
# What changes speed, in the order a configuration label reads.
SPEED_PARTS = (
    "device_count", "device_label", "memory_gb", "form_factor", "framework", "precision", "global_batch_size",
)  # fmt: skip
# What a bar may pool besides those: said when it does.
POOL_PARTS = (*SPEED_PARTS, "variant", "backend", "workload")
PER_DEVICE = " per device"


def _present(df: pd.DataFrame, column: str) -> bool:
    return column in df.columns and bool(df[column].notna().any())


def _text(values: pd.Series) -> pd.Series:
    return values.astype("string").fillna("")


def configuration(df: pd.DataFrame) -> pd.Series | None:
    """Each row's configuration label ('8× H100 · 80GB · SXM5 · fp16'): its device, the count when rows state one,
    and each other speed part that differs among the rows; None when the device alone tells the rows apart."""
    if "device_label" not in df.columns or df.empty:
        return None
    device = _text(df["device_label"])
    label = device
    extra = False
    if _present(df, "device_count"):
        count = pd.to_numeric(df["device_count"], errors="coerce")
        prefix = count.map({n: f"{int(n)}× " for n in count.dropna().unique()}).fillna("")
        label = prefix.astype("string") + label
        extra = True
    for part in (*SPEED_PARTS[2:], *setting_columns(df)):
        if not _present(df, part) or df[part].nunique(dropna=False) < 2:
            continue
        if part.startswith(SETTING):  # 'seq_len 1024': a setting's value is its own configuration
            text = part.removeprefix(SETTING) + " " + _text(df[part])
        elif part in ("memory_gb", "global_batch_size"):
            num = pd.to_numeric(df[part], errors="coerce").astype(float)
            form = "{:g}GB" if part == "memory_gb" else "batch {:g}"
            text = num.map({v: form.format(v) for v in num.dropna().unique()})
        else:
            text = _text(df[part])
        text = text.astype("string").fillna("")
        key = text + "\x00" + device
        said = {
            k: f" · {t}" if t and t.lower() not in d.lower() else "" for k in key.unique() for t, d in [k.split("\x00")]
        }
        label = label + key.map(said)
        extra = True
    return label.astype(object) if extra else None


def per_device_name(metric: str) -> str:
    """'Throughput (tokens/s)' → 'Throughput per device (tokens/s)'; AccelBench's examples/s likewise."""
    title = metric_title(metric)
    if "(" in title:
        head, unit = title.rsplit("(", 1)
        return f"{head.rstrip()}{PER_DEVICE} ({unit}"
    return title + PER_DEVICE


def total_of(df: pd.DataFrame, metric: str) -> str:
    """The whole system's rate a per-device column was computed from (itself for any other metric)."""
    return next((m for m in metric_columns(df) if m != metric and per_device_name(m) == metric), metric)


def _is_rate(metric: str) -> bool:
    title = metric_title(metric)
    return (
        higher_is_better(metric) is True
        and not is_derived(metric)
        and PER_DEVICE not in title
        and ("/s)" in title or "/sec" in title)
        and "B/s)" not in title  # a bandwidth (a link's, a collective's busbw) is each device's already: never summed
    )


def add_views(df: pd.DataFrame) -> pd.DataFrame:
    """The rows with `configuration` and a per-device column for each rate, where the rows support them."""
    out = df.copy()
    config = configuration(out)
    if config is not None:
        out[CONFIGURATION] = config
    if _present(out, "device_count") and (pd.to_numeric(out["device_count"], errors="coerce") > 1).any():
        count = pd.to_numeric(out["device_count"], errors="coerce").astype(float)
        for metric in metric_columns(df):
            if _is_rate(metric):
                out[per_device_name(metric)] = out[metric] / count.where(count > 0)
    return out


# A rate of generated tokens is an LLM tool's headline (vLLM's "Output token throughput", LLMPerf's
# mean_output_throughput, llama.cpp's tg), before its request or prompt rates.
_GENERATED = re.compile(r"output|\bgen(?:erat\w*)?\b|decode")
# A statistic of a rate (a one-second peak, a mean over requests) gives way to the rate itself.
_STATISTIC = re.compile(r"\b(?:peak|max|min|median|std|stddev|quantiles|p\d+)\b")
_AVERAGE = re.compile(r"\b(?:avg|mean)\b")  # an average is the nearest statistic to the rate itself


def _headline_rate(rates: Sequence[str]) -> str | None:
    """The rate a chart opens on: a rate of generated tokens first, a plain rate before a statistic of one."""
    if not rates:
        return None
    titles = {m: metric_title(m).lower().replace("_", " ") for m in rates}

    def rank(m: str) -> tuple[bool, bool, bool]:
        return not _GENERATED.search(titles[m]), bool(_STATISTIC.search(titles[m])), bool(_AVERAGE.search(titles[m]))

    return min(rates, key=rank)


# A measurement of training work: a run that trains and then checks inference is judged by its training.
_TRAINING = re.compile(r"\btrain(?:ing)?\b")
_WORK_UNIT = re.compile(r"/s\)|\((?:s|min|h)\)$")


def _trains(df: pd.DataFrame, metric: str) -> bool:
    """Whether the rows of `metric` are a training test (`workload: training_benchmark`)."""
    names = [c for c in ("workload", "model") if c in df.columns and metric in df.columns]
    text = " ".join(str(v) for c in names for v in df.loc[df[metric].notna(), c].dropna().unique()[:5])
    return bool(_TRAINING.search(text.lower().replace("_", " ")))


def _training_work(metrics: Sequence[str], df: pd.DataFrame) -> str | None:
    """The training rate, else the training time, of a run that measured several kinds of work (a fine-tune's
    `total_train_time` beside its inference tokens/s; a cluster test's training tokens/s beside matmul TFLOPS)."""
    if "file" in df.columns and df["file"].nunique() > 1:
        return None  # files dropped together are several runs, not one run's kinds of work
    titles = {m: metric_title(m).lower().replace("_", " ") for m in metrics}
    train = [m for m in metrics if (_TRAINING.search(titles[m]) or _trains(df, m)) and _WORK_UNIT.search(titles[m])]
    if len(train) == len(metrics) or any("accuracy" in titles[m] or "loss" in titles[m] for m in train):
        return None  # a training log's own metrics: chosen below
    return next((m for m in train if _is_rate(m)), train[0] if train else None)


# An energy per inference is the score of the run that measured it: MLPerf Tiny scores its energy mode by the median
# µJ per inference the EEMBC EnergyRunner logs (its performance mode, a run of its own, by the throughput). An energy
# per token or request (ML.ENERGY's leaderboard) is one of a serving configuration's figures beside its rate.
_ENERGY_SCORE = re.compile(r"^energy per inference\b")


def _headline_metric(metrics: Sequence[str], df: pd.DataFrame) -> str:
    """The first metric, except: a run's training work before its other measurements (`_training_work`), an energy
    run's energy per inference, a latency gives way to a rate of work (ML.ENERGY's tokens/s before its inter-token
    latency), and a training log's accuracy to its validation accuracy (AlgoPerf's targets are validation targets;
    the test and train splits are not its result)."""
    trained = _training_work(metrics, df)
    if trained is not None:
        return trained
    energy = next((m for m in metrics if _ENERGY_SCORE.search(metric_title(m).lower())), None)
    if energy is not None:
        return energy
    first = metrics[0]
    title = metric_title(first).lower()
    if title.startswith("algorithm bandwidth"):  # nccl-tests: busbw is the figure comparable to the hardware's peak
        return next((m for m in metrics if metric_title(m).lower().startswith("bus bandwidth")), first)
    if title.startswith("exact_match"):  # SQuAD's evaluation: F1 is the score its targets are set in (MLPerf BERT)
        return next((m for m in metrics if metric_title(m).lower().startswith("f1")), first)
    if "latency" in title or _is_rate(first):
        return _headline_rate([m for m in metrics if _is_rate(m)]) or first
    if "accuracy" not in title:
        return first
    return next((m for m in metrics if re.search(r"validation.*accuracy", metric_title(m).lower())), first)


def default_metric(df: pd.DataFrame, metrics: Sequence[str], per_device: bool = True) -> str:
    """The headline metric (`_headline_metric`), or its per-device rate when every row with a value states its
    device count."""
    first = _headline_metric(metrics, df)
    per = per_device_name(first)
    if not per_device:
        return first
    if per in df.columns and df[per].notna().sum() == df[first].notna().sum():
        return per
    return first


def default_how(df: pd.DataFrame, metric: str) -> str:
    """The bar chart's default aggregate: the best an accuracy curve reached ("max") when the rows are a training
    log (a step or elapsed-time axis) — a median over a curve's epochs is no result — else the median."""
    curve = any(_present(df, c) for c in ("step", "elapsed_s"))
    return "max" if curve and "accuracy" in metric.lower() else "median"


def default_group(df: pd.DataFrame, groupable: Sequence[str]) -> list[str]:
    """Configuration × workload when rows differ in more than their device, else device × workload."""
    first = CONFIGURATION if CONFIGURATION in groupable else "device_label"
    return [c for c in (first, "workload") if c in groupable]


def pooled(df: pd.DataFrame, by: Sequence[str], metric: str) -> pd.DataFrame:
    """Bars (groups of `aggregate`) made of rows of several configurations: group, how many, and what differs
    ('variant: HTOff v2, v2'). Empty when every bar is one configuration."""
    columns = ["group", "configurations", "differs"]
    data = df.dropna(subset=[metric]) if metric in df.columns else df.iloc[0:0]
    parts = [c for c in (*POOL_PARTS, *setting_columns(data)) if c not in by and _present(data, c)]
    if CONFIGURATION in by:
        parts = [c for c in parts if c not in SPEED_PARTS and not c.startswith(SETTING)]
    if data.empty or not parts:
        return pd.DataFrame(columns=columns)
    label = group_label(data, list(by)) if by else pd.Series("all rows", index=data.index)
    keyed = pd.concat([label.rename("group"), data[parts].astype("string").fillna("—")], axis=1).drop_duplicates()
    counts = keyed.groupby("group", sort=True).size()  # distinct configurations per bar (vectorised: 100,000 rows)
    many = keyed[keyed["group"].isin(counts[counts > 1].index)]
    rows = []
    for group, g in many.groupby("group", sort=True):
        differs = [
            f"{p.removeprefix(SETTING).replace('_', ' ')}: {', '.join(sorted(g[p].unique()))}"
            for p in parts
            if g[p].nunique() > 1
        ]
        rows.append({"group": group, "configurations": len(g), "differs": "; ".join(differs)})
    return pd.DataFrame(rows, columns=columns)
