"""System names that carry their configuration — `LambdaOD_Texas_1xH100_80GB_SXM5_10_0_3_7_v2`, `8x H100 80GB
SXM5 (host-3)`, `Dell 2x H100 80GB SXM5`, `16 p3.16xlarge (AWS)` — read into PARTS by the one parser
(engine.imports.facts.system_names, driven by the hardware table's aliases), with cloud instance types counted
(instances × accelerators each). The user can add regular expressions (named groups `count`, `model`,
`variant`, `note`) that are tried first, and correct any parsed cell (`fixes`, by name). Pure pandas; no
streamlit.
"""

from __future__ import annotations

import re

import pandas as pd

from engine.catalog.hardware_table import DEVICES
from engine.imports.facts.import_mapping import own_rules
from engine.imports.facts.system_names import SystemName, ambiguity, parse_system
from engine.results.errors import CsvError

# Cloud instance types that name their accelerators: (pattern, accelerators per instance, device model).
# A name like "16 p3.16xlarge (AWS)" (DAWNBench) is 16 instances × 8 V100 = 128 V100.
INSTANCES: tuple[tuple[str, int, str], ...] = (
    (r"p3\.2xlarge", 1, "V100"), (r"p3\.8xlarge", 4, "V100"), (r"p3\.16xlarge", 8, "V100"),
    (r"p3dn\.24xlarge", 8, "V100"), (r"p4de?\.24xlarge", 8, "A100"), (r"p5e?n?\.48xlarge", 8, "H100"),
    (r"p2\.xlarge", 1, "K80"), (r"p2\.8xlarge", 8, "K80"), (r"p2\.16xlarge", 16, "K80"),
    (r"g4dn\.(?:x|2x|4x|8x|16x)large", 1, "T4"), (r"g4dn\.12xlarge", 4, "T4"), (r"g5\.(?:x|2x|4x|8x|16x)large", 1, "A10G"),
    (r"a2-highgpu-(\d+)g", 0, "A100"), (r"a3-highgpu-(\d+)g", 0, "H100"),
    (r"gn6e-c12g1\.3xlarge", 1, "V100"), (r"gn6e-c12g1\.12xlarge", 4, "V100"), (r"gn6e-c12g1\.24xlarge", 8, "V100"),
    (r"gn6v-c8g1\.16xlarge", 8, "V100"), (r"gn6v-c8g1\.8xlarge", 4, "V100"), (r"gn6v-c8g1\.2xlarge", 1, "V100"),
)  # fmt: skip
PARTS = (
    "device_count", "device_model", "memory_gb", "form_factor", "variant", "provider", "host", "note", "hardware_key",
    "device_label",
)  # fmt: skip
EDITABLE = ("device_count", "device_model", "memory_gb", "form_factor", "variant", "provider", "host", "note")


def compile_rules(rules: list[str] | tuple[str, ...]) -> list[re.Pattern[str]]:
    """The rules compiled (case-insensitive); CsvError naming the rule that does not compile or has no model."""
    out = []
    for i, rule in enumerate(own_rules(rules)):
        try:
            pat = re.compile(rule.strip(), re.IGNORECASE)
        except re.error as exc:
            raise CsvError(f"system rule {i + 1} is not a valid regular expression ({exc})") from None
        if "model" not in pat.groupindex:
            raise CsvError(f"system rule {i + 1} needs a (?P<model>…) group")
        out.append(pat)
    return out


def hardware_key(model: str) -> str | None:
    """The hardware table key of a device name ('Tesla T4' → 't4'; 'P40' → None)."""
    return parse_system(model).hardware_key


def _as_parts(p: SystemName) -> dict[str, object]:
    return {name: getattr(p, name) for name in PARTS if name != "device_label"}


def _by_rule(text: str, m: re.Match[str]) -> dict[str, object]:
    """A user's rule matched: its groups, the model read by the parser (table key, memory, form factor)."""
    groups = m.groupdict()
    model = parse_system(" ".join((groups.get("model") or text).split()))
    parts = _as_parts(model)
    count = groups.get("count")
    parts["device_count"] = int(count) if count else model.device_count
    parts["variant"] = (groups.get("variant") or "").strip(" -,;") or model.variant
    parts["note"] = " ".join(n for n in (groups.get("note"), groups.get("note2")) if n).strip(" -,;")
    return parts


def parse_name(name: str, rules: list[re.Pattern[str]]) -> dict[str, object]:
    """One system name read into PARTS: the user's first matching rule, else the parser; a cloud instance
    type counts its accelerators when the name holds no device the table knows."""
    text = " ".join(name.split())
    match = next((m for m in (pat.match(text) for pat in rules) if m), None)
    parts = _by_rule(text, match) if match else _as_parts(parse_system(text))
    if parts["hardware_key"] is None:
        instance = _instance(text)
        if instance:
            parts |= instance | {"hardware_key": hardware_key(str(instance["device_model"]))}
    key = parts["hardware_key"]
    parts["device_label"] = next(d.short for d in DEVICES if d.key == key) if key else parts["device_model"]
    return parts


def _instance(text: str) -> dict[str, object] | None:
    """A cloud instance type in the name: count = instances × accelerators per instance."""
    for pattern, per, model in INSTANCES:
        m = re.search(rf"(?:(?P<n>\d+)\s*[x×*]?\s*)?(?:ecs\.)?(?P<type>{pattern})", text, re.IGNORECASE)
        if m:
            per = per or int(m.group(3))
            return {"device_count": int(m.group("n") or 1) * per, "device_model": model, "variant": "",
                    "note": f"{m.group('n') or 1} × {m.group('type')}" + text[m.end():].rstrip()}  # fmt: skip
    return None


def _fixed(parts: dict[str, object], fix: dict[str, str]) -> dict[str, object]:
    """A parsed name with the user's corrections; a corrected model is looked up in the table again."""
    out = dict(parts)
    for part, value in fix.items():
        if part not in EDITABLE:
            continue
        text = str(value).strip()
        if part in ("device_count", "memory_gb"):
            try:
                out[part] = (int(float(text)) if part == "device_count" else float(text)) if text else None
            except ValueError:
                raise CsvError(f"the corrected {part} is not a number: {text!r}") from None
        else:
            out[part] = text
    if "device_model" in fix:
        key = hardware_key(str(out["device_model"]))
        out["hardware_key"] = key
        out["device_label"] = next(d.short for d in DEVICES if d.key == key) if key else out["device_model"]
    return out


def parse_systems(
    names: pd.Series, rules: list[str] | tuple[str, ...] = (), fixes: dict[str, dict[str, str]] | None = None
) -> pd.DataFrame:
    """Each name read into PARTS (same index as `names`), with the user's `fixes` (name → part → text);
    distinct names are parsed once."""
    compiled = compile_rules(rules)
    fixes = fixes or {}
    distinct = {n: _fixed(parse_name(n, compiled), fixes.get(n, {})) for n in pd.unique(names.astype(str))}
    out = pd.DataFrame([distinct[n] for n in names.astype(str)], index=names.index, columns=list(PARTS))
    out["device_count"] = out["device_count"].astype("Int64")
    out["memory_gb"] = pd.to_numeric(out["memory_gb"], errors="coerce")
    return out


def preview(
    names: pd.Series,
    rules: list[str] | tuple[str, ...] = (),
    limit: int = 50,
    fixes: dict[str, dict[str, str]] | None = None,
) -> pd.DataFrame:
    """Distinct names and how they are read — shown, and correctable, before anything is imported."""
    distinct = pd.Series(pd.unique(names.astype(str))[:limit], name="system")
    parsed = parse_systems(distinct, rules, fixes)
    return pd.concat([distinct, parsed], axis=1)


def ambiguous(names: pd.Series, rules: list[str] | tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(name, the reading chosen and why) for each distinct name that could be read another way (two counts, two
    devices, a bare number as the count, a suffix that makes another GPU, a cloud instance type whose GPUs come
    from a table); names a user's rule matches are theirs, not listed."""
    compiled = compile_rules(rules)
    out = []
    for name in pd.unique(names.astype(str)):
        text = " ".join(name.split())
        if any(pat.match(text) for pat in compiled):
            continue
        instance = _instance(text) if parse_system(name).hardware_key is None else None
        why = ambiguity(name)
        if instance:  # DAWNBench's "16 p3.16xlarge (AWS)": a cloud instance type, its GPUs from a table
            n = instance["device_count"]
            why = f"a cloud instance type ({instance['note']}): read as {n} × {instance['device_model']}"
        if why:
            out.append((name, why))
    return out
