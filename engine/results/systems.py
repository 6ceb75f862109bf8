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
)
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
            "note": (groups.get("note") or "").strip(" -,;"),
        }
        break
    variant = str(parts["variant"])
    if variant.startswith("(") and variant.endswith(")") and not parts["note"]:  # "8 V100 (AWS p3.16xlarge)"
        parts["variant"], parts["note"] = "", variant[1:-1]
    key = hardware_key(str(parts["device_model"]))
    parts["hardware_key"] = key
    parts["device_label"] = next(d.short for d in DEVICES if d.key == key) if key else parts["device_model"]
    return parts


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
