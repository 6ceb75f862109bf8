"""Units per column: what each known tool's throughput columns count, and the unit beside every mapped value.

A wide vendor table names models, not units (lambdal's `pytorch-train-throughput-v2-fp16.csv`: `ssd`, `resnet50`,
`bert_large_squad`, `gnmt`, `tacotron2` …). Its unit is the tool's own convention — what the tool's log line
reports for that model (lambdal's compile script reads `images/sec` for ResNet-50 and SSD,
`training_sequences_per_second` for BERT, `Tok/s` for GNMT and Transformer-XL, and `train_items_per_sec` for
Tacotron 2 (mel frames) and WaveGlow (audio samples), NVIDIA DeepLearningExamples' units). images/s and
sequences/s land on AccelBench's examples/s axis, each row keeping its own unit in `unit`; tokens, mel frames
and audio samples keep their own axes. Pure Python and pandas; no streamlit.
"""

from __future__ import annotations

import re

import pandas as pd

from engine.imports.facts.import_mapping import ImportMapping, ValueSpec
from engine.results.history import group_label, metric_title
from engine.results.quantities import UNIT_FAMILIES

# Model column (lower case, '-' and ' ' read as '_') → its throughput unit, as lambdal's benchmark reports it.
LAMBDA_UNITS: dict[str, str] = {
    "resnet50": "images/s", "ssd": "images/s", "maskrcnn": "images/s", "resnet50_v1.5": "images/s",
    "bert_base_squad": "sequences/s", "bert_large_squad": "sequences/s",
    "gnmt": "tokens/s", "transformerxlbase": "tokens/s", "transformerxllarge": "tokens/s",
    "tacotron2": "mel frames/s", "waveglow": "audio samples/s", "ncf": "samples/s",
}  # fmt: skip
LAMBDA_FORMAT = "lambdal deeplearning-benchmark table (units per model from its compile script)"
RATE_WORDS = {"images": "images/s", "img": "img/s", "samples": "samples/s", "examples": "examples/s",
               "sequences": "sequences/s", "seq": "sequences/s", "tokens": "tokens/s", "queries": "queries/s",
               "tok": "tokens/s", "toks": "tokens/s", "token": "tokens/s", "imgs": "images/s", "seqs": "sequences/s",
               "sentences": "sentences/s", "frames": "frames/s", "mels": "mel frames/s",
               "inferences": "inferences/s", "inf": "inferences/s",  # EEMBC's `inf./sec.`
               # one-letter abbreviations of a rate's unit ('(T/s/GPU)', '(S/s)'): never seconds per second
               "t": "tokens/s", "s": "samples/s", "i": "images/s"}  # fmt: skip
_UNIT_WORDS = {"hours": "h", "hour": "h", "hrs": "h", "minutes": "min", "mins": "min", "seconds": "s", "secs": "s",
               "sec": "s", "msec": "ms", "millis": "ms", "percent": "%", "pct": "%", "watts": "W", "usd": "USD",
               "gbs": "GB/s", "gbps": "GB/s", "tflops": "TFLOPS", "gflops": "GFLOPS", "joules": "J",
               "tflop/s": "TFLOPS", "gflop/s": "GFLOPS"}  # fmt: skip
# A statistic a key may end in after its unit (LLMPerf's `…_latency_s_quantiles_p90`, `…_s_min`)
_STATISTIC = r"min|max|mean|avg|median|std|stddev|p\d+(?:\.\d+)?|quantiles"
# LLM serving benchmarks' unitless rates (vLLM `bench serve` and SGLang `bench_serving` result keys:
# request_throughput in requests/s; input_, output_, total_token_throughput in tokens/s).
_COUNTED_THROUGHPUT = re.compile(r"\b(requests?|tokens?|input|output|prompt|generation)\s+throughput$")
_OWN_AXIS = "examples/s"  # AccelBench's own throughput axis (examples_per_sec)
PER_DEVICE_UNIT = " per device"  # a header's rate of one device ('T/s/GPU'): divided by the count never again
_PER_DEVICE = re.compile(r"\s*(?:/|per\s*)(?:gpu|device|chip|accelerator|card|tpu|xpu)s?$", re.IGNORECASE)
# Names of a share of a peak that files print without a unit (MFU 41.5): percentages stay percentages.
_SHARE = re.compile(r"(?:^|[^a-z])(mfu|hfu|util|utilization|utilisation|occupancy)(?:[^a-z]|$)", re.IGNORECASE)


_FAMILIES = UNIT_FAMILIES  # one table of unit families, shared with the order labels sort in


def unit_factor(cell_unit: str, unit: str) -> float | None:
    """What a number in `cell_unit` is multiplied by to be in `unit`; None when they measure different things."""
    for family in _FAMILIES:
        if cell_unit in family and unit in family:
            return family[cell_unit] / family[unit]
    return None


# An energy per item said in the unit itself (the EEMBC EnergyRunner's `Energy/Inf. : 443.184 uJ/inf.`): the item
# joins the name and the unit is the energy's, as ML.ENERGY's energy_per_token_joules reads 'Energy per token (J)'.
_ENERGY_PER = re.compile(r"^([uµm]?J|k?Wh)\s*/\s*([a-z]+)\.?$", re.IGNORECASE)
_ITEMS = {"inf": "inference", "inference": "inference", "token": "token", "tok": "token", "img": "image",
          "image": "image", "sample": "sample", "query": "query", "request": "request", "req": "request"}  # fmt: skip


def _per_item(name: str, unit: str) -> tuple[str, str]:
    """('Energy/Inf.', 'uJ/inf.') → ('Energy per inference', 'uJ'); any other (name, unit) as it is."""
    m = _ENERGY_PER.match(unit)
    item = _ITEMS.get(m.group(2).lower()) if m else None
    if not m or not item:
        return name, unit
    base = re.sub(r"\s*(?:/|per)\s*[a-z]+\.?$", "", name, flags=re.IGNORECASE) or "Energy"
    return f"{base} per {item}", m.group(1)


def unit_from_header(name: str) -> tuple[str, str]:
    """Header hints. (name without its unit, unit): 'ResNet-50 (images/sec)' → ('ResNet-50', 'images/s')."""
    m = re.search(r"\s*[(\[]([^()\[\]]+)[)\]]\s*$", name)
    if m:
        return _per_item(name[: m.start()].strip(), normalise_unit(m.group(1)))
    low = name.lower().replace("_", " ")
    m = re.search(r"(\w+)\s*(?:/|per)\s*(s|sec|second)\b", low)
    if m and m.group(1) in RATE_WORDS:
        return name, RATE_WORDS[m.group(1)] + (PER_DEVICE_UNIT if _PER_DEVICE.search(low) else "")
    words = low.split()
    core = list(words)
    while len(core) >= 3 and re.fullmatch(_STATISTIC, core[-1]):
        core.pop()  # `latency_s_min`, `ttft_ms_p99`: a statistic after the unit (`min` is no minutes there)
    if len(core) < len(words) and (unit := unit_from_header(" ".join(core))[1]):
        return name, unit
    if len(words) >= 2 and words[-1] in ("s", "sec") and words[-2] in RATE_WORDS:  # throughput_img_s
        return name, RATE_WORDS[words[-2]]
    counted = _COUNTED_THROUGHPUT.search(low)
    if counted:
        return name, "requests/s" if counted.group(1).startswith("request") else "tokens/s"
    last = words[-1] if words else ""
    if last in _UNIT_WORDS or last in ("ms", "s", "min", "h"):
        return name, normalise_unit(last)
    return name, ""


def normalise_unit(unit: str) -> str:
    u = unit.strip()
    per = _PER_DEVICE.search(u)
    if per and per.start() > 0:
        return normalise_unit(u[: per.start()]) + PER_DEVICE_UNIT
    low = re.sub(r"(?<=[a-z])\.", "", u.lower())  # `inf./sec.`: an abbreviation's dots are no part of the unit
    if low in _UNIT_WORDS:
        return _UNIT_WORDS[low]
    m = re.match(r"^(\w+)\s*(?:/|per\s*)(?:s|sec|second)$", low)
    if m:  # `GB/s` keeps its capitals: only a rate word of its own is respelled
        word = re.sub(r"(?<=[A-Za-z])\.", "", u)[: m.end(1)]
        return RATE_WORDS.get(m.group(1), f"{word}/s")
    return u


def split_per_device(unit: str) -> tuple[str, bool]:
    """('tokens/s', True) for 'tokens/s per device' (a header's '(T/s/GPU)'), else (unit, False)."""
    if unit.endswith(PER_DEVICE_UNIT):
        return unit[: -len(PER_DEVICE_UNIT)], True
    return unit, False


def share_unit(name: str) -> str:
    """'%' for a column named as a share of a peak (MFU, utilisation) that gives no unit, else ""."""
    return "%" if _SHARE.search(name) else ""


# Evaluation scores their scripts print on a 0–100 scale without a unit (SQuAD v1.1's `{"exact_match": 80.0, "f1":
# 87.6}`, COCO's `mAP=49.593%`): a percentage where a value exceeds 1 (a score printed as a fraction has no unit).
_SCORE = re.compile(r"(?:^|[^a-z])(f1|exact_match|exact|em|map|ap)(?:[^a-z]|$)", re.IGNORECASE)


def score_unit(name: str, cells: pd.Series) -> str:
    """'%' for an evaluation score (f1, exact_match, mAP) with a value above 1 and no unit of its own, else ""."""
    numbers = pd.to_numeric(cells.astype(str).str.rstrip("%"), errors="coerce")
    return "%" if _SCORE.search(name) and bool((numbers > 1).any()) and bool((numbers <= 100).all()) else ""


def is_score(name: str) -> bool:
    return bool(_SCORE.search(name))


def _key(column: str) -> str:
    return re.sub(r"[\s-]+", "_", column.strip().lower())


def lambda_unit(column: str) -> str:
    """The unit lambdal's benchmark reports for a model column ('gnmt' → 'tokens/s'); "" when not one of its."""
    return LAMBDA_UNITS.get(_key(column), "")


def is_lambda_table(columns: list[str]) -> bool:
    """Two or more of lambdal's model columns side by side."""
    return sum(1 for c in columns if lambda_unit(c)) >= 2


def tool_units(m: ImportMapping, name: str) -> None:
    """lambdal's tables: each model column's unit from the tool's convention (shown, editable). Not for its
    batch-size tables (`…-bs-….csv`), whose cells are batch sizes."""
    words = set(re.split(r"[^a-z0-9]+", name.lower()))
    if words & {"bs", "batch", "batchsize"} or m.column("metric"):
        return
    cols = m.columns("value")
    if not (is_lambda_table(cols) or ("throughput" in words and any(lambda_unit(c) for c in cols))):
        return
    for c in cols:
        spec = m.values.get(c) or ValueSpec()
        if lambda_unit(c) and not spec.unit:
            m.values[c] = ValueSpec("Throughput", lambda_unit(c), spec.model or c, spec.direction)
    m.fmt = m.fmt or LAMBDA_FORMAT


def unit_of(metric: str, row_unit: str = "") -> str:
    """The unit of one value of `metric`: the metric's own ('Throughput (tokens/s)' → 'tokens/s'), with AccelBench's
    examples/s replaced by what the row counted (images/s, sequences/s) where the row says."""
    title = metric_title(metric)
    m = re.search(r"\(([^()]+)\)(?: · (?:lower|higher) is better)?$", title)
    unit = m.group(1) if m else ""
    if row_unit.endswith("/s") and unit.startswith(_OWN_AXIS):  # a step time's row (ms) converted: examples/s
        unit = row_unit + unit[len(_OWN_AXIS) :]
    return unit


def units_in(df: pd.DataFrame, metric: str) -> list[str]:
    """The distinct units of the values of `metric` in these rows (sorted)."""
    if metric not in df.columns:
        return []
    rows = df[df[metric].notna()]
    own = rows["unit"].astype("string").fillna("") if "unit" in rows.columns else pd.Series("", index=rows.index)
    return sorted({unit_of(metric, u) for u in own.unique()})


def group_units(df: pd.DataFrame, by: list[str], metric: str) -> dict[str, str]:
    """Each group's unit (as history.aggregate labels its groups), for the bars' hover: 'images/s'."""
    rows = df[df[metric].notna()] if metric in df.columns else df.iloc[0:0]
    if rows.empty:
        return {}
    own = rows["unit"].astype("string").fillna("") if "unit" in rows.columns else pd.Series("", index=rows.index)
    unit = own.map({u: unit_of(metric, u) for u in own.unique()})  # per distinct unit, not per row
    label = group_label(rows, by) if by else pd.Series("all rows", index=rows.index)
    return unit.groupby(label).agg(lambda s: ", ".join(sorted(set(s)))).to_dict()


def titled(metric: str, units: list[str]) -> str:
    """The axis title: 'Throughput per device (images/s)' for one unit, '(examples/s: images/s, sequences/s)'
    for several that share the examples/s axis."""
    title = metric_title(metric)
    if not units or "(" not in title or not title.endswith(")"):
        return title
    head, unit = title.rsplit("(", 1)
    unit = unit.rstrip(")")
    if len(units) == 1:
        return f"{head}({units[0]})"
    if unit in units:  # AccelBench's own runs (examples/s) beside rows that counted images or sequences
        return f"{head}({unit}; also {', '.join(u for u in units if u != unit)})"
    return f"{head}({unit}: {', '.join(units)})"


def derived_rates(out: pd.DataFrame, metric_names: list[str]) -> list[str]:
    """Throughput per dollar and per watt, where the rows carry a price or a power."""
    added = []
    for name in metric_names:
        rate = name == "examples_per_sec" or name.endswith("/s)") or name.startswith("Throughput")
        unit = "examples/s" if name == "examples_per_sec" else name[name.rfind("(") + 1 : -1] if "(" in name else ""
        for col, label in (("price_usd_per_h", "USD/h"), ("power_w", "W"), ("system_price_usd", "USD")):
            if rate and out[col].notna().any():
                base = "Throughput" if name == "examples_per_sec" else name.split("(")[0].split(" · ")[0].strip()
                new = f"{base} per {label} ({unit or 'results/s'} per {label})"
                out[new] = out[name] / out[col].where(out[col] > 0)
                added.append(new)
    return added


# A time per step or per iteration (not a time to train): with the batch known, examples/s = batch ÷ seconds.
_STEP_TIME = re.compile(r"per (?:step|iter)|step[ _]?time|iter(?:ation)?[ _]?time|batch[ _]?time|s/it\b", re.I)
_SECONDS = {"ms": 1e-3, "s": 1.0, "us": 1e-6, "µs": 1e-6}


def step_rates(out: pd.DataFrame, metric_names: list[str]) -> list[str]:
    """Throughput (examples/s) from the first time per step whose rows carry their batch, beside the time (both
    shown); nothing where AccelBench's own throughput is already there or no row states its batch."""
    batch = pd.to_numeric(out.get("global_batch_size"), errors="coerce") if "global_batch_size" in out else None
    if batch is None or batch.isna().all() or "examples_per_sec" in out.columns:
        return []
    for name in metric_names:
        found = re.search(r"\(([^()]+)\)$", metric_title(name))
        if found and found.group(1) in _SECONDS and _STEP_TIME.search(name):
            out["examples_per_sec"] = batch.astype(float) / (out[name] * _SECONDS[found.group(1)])
            return [f"Throughput (examples/s) = the batch ÷ {metric_title(name)}"]
    return []
