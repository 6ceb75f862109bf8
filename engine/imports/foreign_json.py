"""JSON results and metadata sidecars.

- Results: an array of records (one object per run), a document holding such an array (`{"results": […]}`),
  one nested document per run (config, environment and report in sub-objects), or JSON lines — flattened
  with `pandas.json_normalize` into dotted columns (`config.batch_size`) of text cells, one row per record,
  `_row` = the record's number (1-based), so the same mapping step reads them as a table.
- Sidecars: a JSON or simple YAML file of `key: value` pairs (hardware, framework, batch size, price per
  hour) describing a table next to it; flattened to dotted keys and joined to every row of that table.

Pure pandas; no streamlit. YAML is read without a YAML library: flat and indented `key: value` maps only.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np
import pandas as pd

from engine.imports.foreign_text import decode_any
from engine.results.errors import CsvError

JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
YAML_SUFFIXES = (".yaml", ".yml")


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        lines = [ln for ln in text.split("\n") if ln.strip()]
        if len(lines) > 1 and all(ln.lstrip().startswith("{") for ln in lines):  # JSON lines
            out = []
            for i, ln in enumerate(lines):
                try:
                    out.append(json.loads(ln))
                except json.JSONDecodeError as e:
                    raise CsvError(f"not valid JSON ({e.msg}, character {e.colno})", i + 1) from None
            return out
        raise CsvError(f"not valid JSON ({exc.msg}, line {exc.lineno} character {exc.colno})", exc.lineno) from None


def _report(doc: Any) -> dict | None:
    """The `report` of a nested benchmark document (optimum-benchmark style: config + environment + report, each
    report section with a latency's per-iteration `values` and stats), or None."""
    if not isinstance(doc, dict):
        return None
    report = doc.get("report", doc)
    if not isinstance(report, dict):
        return None
    sections = [v for v in report.values() if isinstance(v, dict) and isinstance(v.get("latency"), dict)]
    return report if sections else None


def _first(v: Any) -> Any:
    return v[0] if isinstance(v, list) and v else v


def _dig(doc: Any, *path: str) -> Any:
    for key in path:
        doc = doc.get(key) if isinstance(doc, dict) else None
    return doc


def _device(config: dict[str, Any], env: dict[str, Any]) -> dict[str, Any]:
    """Where the benchmark ran: the backend's `device` says cpu or cuda; the environment lists every GPU the host
    has, which is not where a CPU run ran (optimum-benchmark's py-txi run on a T4 host reports `device: cpu`)."""
    on = str(_dig(config, "backend", "device") or "").lower()
    if on == "cpu" and env.get("cpu"):
        gpu = _first(env.get("gpu"))
        flag = {"_flag": f"the report ran on the CPU (config.backend.device: cpu) although its host lists {gpu}: "
                         f"the device is the CPU, not the {gpu}"} if gpu else {}  # fmt: skip
        return {"device": str(env["cpu"]).strip(), "device_count": 1, **flag}
    ids = str(_dig(config, "backend", "device_ids") or "")
    count = len([i for i in ids.split(",") if i.strip()]) if ids and on != "cpu" else env.get("gpu_count")
    said, gpu_run = None, on in ("cuda", "gpu", "rocm", "xpu", "mps")
    if gpu_run and env and not _first(env.get("gpu")):  # never the host's CPU for a GPU run
        said = f"the report ran on {on} (config.backend.device) but its environment lists no GPU: type the device"
    elif ids and on != "cpu" and isinstance(env.get("gpu_count"), int) and count > env["gpu_count"]:
        said = f"config.backend.device_ids names {count} devices but the environment has {env['gpu_count']}"
    device = _first(env.get("gpu")) or (None if gpu_run else env.get("cpu"))
    return {"device": device, "device_count": count, **({"_flag": said} if said else {})}


def _section_stats(section: str, part: dict[str, Any]) -> dict[str, Any]:
    """One report section's latency median, p90 and spread (CV %) from its per-iteration values (else its own
    p50/p90/stdev) and its throughput; named by section except `forward` (load, prefill, decode …)."""
    lat = part["latency"]
    unit = str(lat.get("unit") or "s")
    values = pd.to_numeric(pd.Series(lat.get("values") or [], dtype=object), errors="coerce").dropna()
    median: Any
    p90: Any
    cv: float | None
    if len(values):
        median, p90 = float(values.median()), float(values.quantile(0.9))
        cv = float(values.std() / values.mean() * 100) if len(values) > 1 and values.mean() else 0.0
    else:
        median, p90 = lat.get("p50", lat.get("mean")), lat.get("p90")
        cv = float(lat["stdev"]) / float(lat["mean"]) * 100 if lat.get("stdev") and lat.get("mean") else None
    pre = "" if section == "forward" else f"{section} "
    if (len(values) or lat.get("count")) == 1:  # one iteration (loading the model): a time, no spread
        return {f"{pre}latency ({unit})": median}
    out = {
        f"{pre}latency median ({unit})": median,
        f"{pre}latency p90 ({unit})": p90,
        f"{pre}latency spread CV (%)": cv,
    }
    thr = part.get("throughput")
    if isinstance(thr, dict) and thr.get("value") is not None:
        out[f"{pre}throughput ({thr.get('unit') or 'samples/s'})"] = thr["value"]
    return out


def report_records(doc: dict) -> list[dict]:
    """A nested report as one run: each report section's latency stats and throughput (`_section_stats`),
    with the configuration and environment it ran in. Settings the report does not give are left out (no
    empty device: the page then asks for one)."""
    report: dict[str, Any] = _report(doc) or {}
    config: dict[str, Any] = doc["config"] if isinstance(doc.get("config"), dict) else {}
    env_doc = doc.get("environment") if isinstance(doc.get("environment"), dict) else config.get("environment")
    env: dict[str, Any] = env_doc if isinstance(env_doc, dict) else {}
    record: dict[str, Any] = {
        **_device(config, env),
        "model": _dig(config, "backend", "model") or config.get("name"),
        "backend": _dig(config, "backend", "name"),
        "batch_size": _dig(config, "scenario", "input_shapes", "batch_size"),
        "framework": " ".join(
            f"{k.split('_')[0]} {env[k]}" for k in ("transformers_version", "torch_version") if env.get(k)
        ),
    }
    sections = {k: v for k, v in report.items() if isinstance(v, dict) and isinstance(v.get("latency"), dict)}
    record["iterations"] = ", ".join(
        f"{k} {len(v['latency'].get('values') or []) or v['latency'].get('count') or '?'}" for k, v in sections.items()
    )
    for section, part in sections.items():
        record.update(_section_stats(section, part))
    same = {k: record[k] for k in ("device", "device_count", "model", "backend", "batch_size", "framework", "_flag")
            if record.get(k) not in (None, "")}  # fmt: skip
    return [{k: v for k, v in record.items() if v not in (None, "")}, *_iterations(sections, same)]


def _iterations(sections: dict[str, Any], same: dict[str, Any]) -> list[dict]:
    """Each measured iteration of a section with several as a row of its own (`iteration`, the latency): a series
    with its distribution, beside the section's stats."""
    rows = []
    for section, part in sections.items():
        values = part["latency"].get("values") or []
        if len(values) < 2:
            continue
        pre = "" if section == "forward" else f"{section} "
        unit = str(part["latency"].get("unit") or "s")
        rows += [{**same, "iteration": i + 1, f"{pre}latency per iteration ({unit})": v} for i, v in enumerate(values)]
    return rows


def _records(doc: Any) -> list[dict]:
    """The list of run records inside a document: the document itself, or its longest list of objects."""
    if _report(doc) is not None:
        return report_records(doc)
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        lists = [v for v in doc.values() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
        if lists:
            return max(lists, key=len)
        return [doc]  # one nested document = one run
    raise CsvError("the JSON holds no objects (expected an array of records or a document)")


def _text(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return str(v)


def read_json_table(data: bytes | str) -> pd.DataFrame:
    """JSON results as a table of text cells with dotted columns plus `_row` (the record's number)."""
    text, _ = decode_any(data)
    if not text.strip():
        raise CsvError("the file is empty")
    records = _records(_parse(text))
    bad = next((i for i, r in enumerate(records) if not isinstance(r, dict)), None)
    if bad is not None:
        raise CsvError(f"record {bad + 1} is not an object (got {_text(records[bad])[:40]!r})", bad + 1)
    if not records:
        raise CsvError("the JSON array is empty")
    flat = pd.json_normalize(records, sep=".")
    frame = flat.apply(lambda col: col.map(_text)).astype(object)
    frame.columns = [str(c) for c in frame.columns]
    flags = list(pd.unique(frame.pop("_flag").dropna())) if "_flag" in frame.columns else []
    frame["_row"] = np.arange(1, len(frame) + 1)
    frame = frame.reset_index(drop=True)
    frame.attrs["flags"] = [f for f in flags if f]  # what contradicts itself in the file, said where it is read
    return frame


def describe_json(frame: pd.DataFrame) -> str:
    """How a JSON file was read, with anything in it that contradicts itself (a CPU run on a GPU host)."""
    return f"JSON, {len(frame):,} records" + "".join(f"; note: {f}" for f in frame.attrs.get("flags", []))


def is_sidecar(data: bytes | str, name: str) -> bool:
    """A JSON/YAML file of settings (one flat-ish object, no list of records) rather than results."""
    low = name.lower()
    if low.endswith(YAML_SUFFIXES):
        return True
    if not low.endswith(".json"):
        return False
    try:
        doc = _parse(decode_any(data)[0])
    except CsvError:
        return False
    if _report(doc) is not None:
        return False  # a nested benchmark report holds results, not settings
    return isinstance(doc, dict) and not any(isinstance(v, list) and v and isinstance(v[0], dict) for v in doc.values())


def _yaml_scalar(text: str) -> str:
    text = re.sub(r"\s+#.*$", "", text.strip())
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text


def _read_yaml(text: str) -> dict[str, str]:
    """`key: value` lines, nested by indentation (two or more spaces), as dotted keys. Lists are kept as text."""
    out: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for i, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.lstrip().startswith(("#", "---")):
            continue
        m = re.match(r"^(\s*)([^:#][^:]*?)\s*:(?:\s+(.*))?$", line)
        if not m:
            if line.lstrip().startswith("- ") and stack:  # a list item: kept as text on its key
                key = stack[-1][1]
                out[key] = (out.get(key, "") + ", " if out.get(key) else "") + _yaml_scalar(line.lstrip()[2:])
                continue
            raise CsvError(f"not a 'key: value' line: {line.strip()[:40]!r}", i)
        indent, key, value = len(m.group(1)), _yaml_scalar(m.group(2)), m.group(3)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        full = ".".join([k for _, k in stack] + [key])
        if value is None or not value.strip():
            stack.append((indent, key))
        else:
            out[full] = _yaml_scalar(value)
    return out


def read_sidecar(data: bytes | str, name: str = "meta.json") -> dict[str, str]:
    """A sidecar's settings as dotted keys → text ({'hardware': '8x V100', 'train.batch_size': '256'})."""
    text, _ = decode_any(data)
    if name.lower().endswith(YAML_SUFFIXES):
        return _read_yaml(text)
    doc = _parse(text)
    if not isinstance(doc, dict):
        raise CsvError("a metadata sidecar must be one JSON object of settings")
    flat = pd.json_normalize(doc, sep=".").iloc[0].to_dict()
    return {str(k): _text(v) for k, v in flat.items() if _text(v) != ""}


_TABLE_TAIL = re.compile(r"[._-]?(?:eval_)?measurements$")
_META_TAIL = re.compile(r"[._-]?(?:meta_?data|meta|metadata)(?:[._-]\d+)?$")


def sidecar_for(table_name: str, names: list[str]) -> str | None:
    """The sidecar among `names` that belongs to `table_name`: same stem (`log.tsv` ↔ `log.json`,
    `log.meta.yaml`, `log.tsv.json`), or the same stem once a log's and a metadata file's own tails are taken
    off (AlgoPerf: `resnet_eval_measurements.csv` ↔ `resnet_meta_data_0.json`; `eval_measurements.csv` ↔
    `meta_data_0.json`)."""
    stem = table_name.rsplit(".", 1)[0].lower()
    core = _TABLE_TAIL.sub("", stem)
    candidates = [n for n in names if n != table_name and n.lower().endswith((".json", *YAML_SUFFIXES))]
    for n in candidates:
        base = n.lower().rsplit(".", 1)[0]
        if base in (stem, f"{stem}.meta", table_name.lower()):
            return n
    for n in candidates:
        base = n.lower().rsplit(".", 1)[0]
        if _META_TAIL.search(base) and _META_TAIL.sub("", base) == core:
            return n
    return None
