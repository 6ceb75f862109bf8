"""System names that carry their configuration — `8x H100 80GB SXM5 (host-3)`, `2x RTX 3090 NVLink`,
`NVIDIA Tesla P100 (DGX-1)` — split into device count, device model, variant and a note by visible,
editable regular expressions, then the model normalised against the one hardware table
(engine.spec.hardware_table) so imported rows line up with reference rows and local runs.

A rule is a regular expression with named groups: `count`, `model`, `variant`, `note` (all optional but
`model`). The first rule that matches a name wins; a name no rule matches keeps its whole text as the
model. Pure pandas; no streamlit.
"""

from __future__ import annotations

import re

import pandas as pd

from engine.results.errors import CsvError
from engine.spec.hardware_table import DEVICES

_VENDOR = r"(?:(?:NVIDIA|Nvidia|Tesla|GeForce|Quadro|AMD|Radeon|Instinct|Google|Cloud|Intel)\s+)*"
_MODEL = (
    r"(?P<model>TPU\s*v\d+[a-z]*(?:-\d+)?|(?:RTX|GTX|Titan)\s*[A-Z]?\d{3,4}(?:\s?Ti)?"
    r"|[A-Z]{1,3}\d{1,4}[A-Za-z]{0,2}|MI\d{2,3}[A-Z]?|Gaudi\s?\d?)"
)
DEFAULT_RULES: tuple[str, ...] = (
    # "8x H100 80GB SXM5 (host-3)", "2 × RTX 3090 NVLink", "NVIDIA Tesla P100 (DGX-1)", "A100-SXM4-40GB"
    rf"^(?:(?P<count>\d+)\s*[x×*]\s*)?{_VENDOR}{_MODEL}(?:[\s-]+(?P<variant>[^()]*?))?\s*(?:\((?P<note>[^)]*)\))?$",
    # "DGX-1 with 8 V100", "server (4 A100)": a count in front of a model anywhere in the name
    rf"^(?P<note>.*?)\b(?P<count>\d+)\s*[x×]?\s*{_VENDOR}{_MODEL}\b(?P<variant>.*)$",
    # "LambdaCloud A10", "Dell H100 80GB SXM5": a host or vendor word in front of the model
    rf"^(?P<note>[\w.-]+)\s+{_VENDOR}{_MODEL}(?:[\s-]+(?P<variant>[^()]*?))?\s*(?:\((?P<note2>[^)]*)\))?$",
)
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
PARTS = ("device_count", "device_model", "variant", "note", "hardware_key", "device_label")


def compile_rules(rules: list[str] | tuple[str, ...]) -> list[re.Pattern[str]]:
    """The rules compiled (case-insensitive); CsvError naming the rule that does not compile or has no model."""
    out = []
    for i, rule in enumerate(r for r in rules if r.strip()):
        try:
            pat = re.compile(rule.strip(), re.IGNORECASE)
        except re.error as exc:
            raise CsvError(f"system rule {i + 1} is not a valid regular expression ({exc})") from None
        if "model" not in pat.groupindex:
            raise CsvError(f"system rule {i + 1} needs a (?P<model>…) group")
        out.append(pat)
    return out


def hardware_key(model: str) -> str | None:
    """The hardware table key whose alias is a whole word of `model` ('Tesla T4' → 't4'; 'P40' → None)."""
    low = model.lower()
    for d in DEVICES:
        for alias in d.aliases:
            if re.search(rf"(?<![a-z0-9]){re.escape(alias)}(?![a-z0-9])", low):
                return d.key
    return None


def parse_name(name: str, rules: list[re.Pattern[str]]) -> dict[str, object]:
    """One system name split by the first matching rule (see PARTS)."""
    text = " ".join(name.split())
    parts: dict[str, object] = {"device_count": None, "device_model": text, "variant": "", "note": ""}
    for pat in rules:
        m = pat.match(text)
        if m is None:
            continue
        groups = m.groupdict()
        count = groups.get("count")
        parts = {
            "device_count": int(count) if count else None,
            "device_model": " ".join((groups.get("model") or text).split()),
            "variant": (groups.get("variant") or "").strip(" -,;"),
            "note": " ".join(n for n in (groups.get("note"), groups.get("note2")) if n).strip(" -,;"),
        }
        break
    if hardware_key(str(parts["device_model"])) is None:
        parts = _instance(text) or parts
    variant = str(parts["variant"])
    if variant.startswith("(") and variant.endswith(")") and not parts["note"]:  # "8 V100 (AWS p3.16xlarge)"
        parts["variant"], parts["note"] = "", variant[1:-1]
    key = hardware_key(str(parts["device_model"]))
    parts["hardware_key"] = key
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


def parse_systems(names: pd.Series, rules: list[str] | tuple[str, ...] = DEFAULT_RULES) -> pd.DataFrame:
    """Each name split into PARTS (same index as `names`); distinct names are parsed once."""
    compiled = compile_rules(rules)
    distinct = {n: parse_name(n, compiled) for n in pd.unique(names.astype(str))}
    out = pd.DataFrame([distinct[n] for n in names.astype(str)], index=names.index, columns=list(PARTS))
    out["device_count"] = out["device_count"].astype("Int64")
    return out


def preview(names: pd.Series, rules: list[str] | tuple[str, ...] = DEFAULT_RULES, limit: int = 50) -> pd.DataFrame:
    """Distinct names and how the rules read them — shown before anything is imported."""
    distinct = pd.Series(pd.unique(names.astype(str))[:limit], name="system")
    parsed = parse_systems(distinct, rules)
    return pd.concat([distinct, parsed], axis=1)
