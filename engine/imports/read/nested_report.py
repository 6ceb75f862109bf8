"""A nested benchmark report (optimum-benchmark style: config + environment + report, each report section with
a latency's per-iteration `values` and stats) read as one run plus a row per measured iteration. Used by
engine.imports.read.foreign_json.

Pure pandas; no streamlit.
"""

from __future__ import annotations

from typing import Any

import pandas as pd


def is_report(doc: Any) -> bool:
    """Whether a parsed JSON document is such a report (it holds results, not settings)."""
    return _report(doc) is not None


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


_NAMED = ("metric_name", "metric_value")  # a test's own name for its headline number, and the number


def _named_tests(doc: Any) -> tuple[str, dict] | None:
    """The key and object of a report's tests, each naming its own headline metric (`results.<test>` with
    metric_name, metric_value, metric_unit: a cluster acceptance report), or None."""
    if not isinstance(doc, dict):
        return None
    for key, tests in doc.items():
        named = (
            [t for t in tests.values() if isinstance(t, dict) and all(k in t for k in _NAMED)]
            if isinstance(tests, dict)
            else []
        )
        if len(named) >= 2:
            return key, tests
    return None


def named_test_records(doc: Any) -> list[dict] | None:
    """One record per test that names its metric (its name as the workload, `metric_name` the metric, in
    `metric_unit`), with the report's other facts (cluster_info's GPUs and count) copied to each; the tests that
    name none (a health check) are left out. None when the document is no such report."""
    found = _named_tests(doc)
    if found is None:
        return None
    key, tests = found
    facts = {k: v for k, v in doc.items() if k != key}
    return [
        {**facts, **test, "workload": test.get("name") or name}
        for name, test in tests.items()
        if isinstance(test, dict) and all(k in test for k in _NAMED)
    ]
