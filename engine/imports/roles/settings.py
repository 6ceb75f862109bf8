"""Settings versus measurements, from the data as well as the names (issue 43), and roles that fit their cells.

- A column whose cells do not fit its role (a kernel time of 8.22 ms under a key named `…batch…`, a text under
  `gpus`) loses the role: it becomes a measurement (numbers) or a note (text), the mapping says so, and the rest
  imports — a file is never refused for one column (`fit_roles`).
- A column is a *setting* when its values repeat across rows and split them into groups (sequence length, image
  size, micro-batch, parallel layout, node count …) and it names no rate, time, latency, utilisation or energy
  (`find_settings`). Settings travel with each row as `setting.<column>` (text), are part of every configuration
  (engine.imports.view.default_view) and of every Compare rate (engine.imports.view.imported_rates): no median is taken
  across two values of a setting.
- A text column of precisions (`half`/`single`/`double`) is the precision, never the device; of two batch columns
  the global one is the batch and the micro-batch a setting.

Pure pandas; no streamlit.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from engine.imports.facts.import_mapping import ImportMapping, ValueSpec
from engine.imports.facts.units import unit_factor, unit_from_header
from engine.imports.read.foreign_text import MISSING_MARKERS, split_number

SETTING = "setting."  # the History column prefix of a setting: `setting.seq_len`
# Names of what is measured: a rate, a time, a latency, a utilisation, an energy, a quality.
_MEASUREMENT = re.compile(
    r"throughput|latency|time|duration|elapsed|speed|rate|per[_ ]?s(ec)?\b|/s\b|fps|qps|tps|flops|mfu|hfu|util"
    r"|occupancy|efficiency|energy|joule|power|watt|memory|mem_|accuracy|acc\b|loss|score|perplexity|bleu|error"
    r"|bandwidth|_ms\b|\bms\b|_us\b|_s\b|seconds|\bsec\b|tokens_per|samples_per|images_per|items_per",
    re.IGNORECASE,
)
# Names of what a run was set to (never a measurement unless its cells or header carry a unit).
_SETTING_NAME = re.compile(
    r"seq|len|length|size|batch|image|img|res(olution)?\b|height|width|nodes?\b|layers|heads|hidden|workers"
    r"|threads|world|\btp\b|\bpp\b|\bdp\b|\bep\b|parallel|replica|shard|dim\b|input|output|prompt|beam|bits"
    r"|mode|scenario|layout|format|phase|strategy|concurrency|streams",
    re.IGNORECASE,
)
_PRECISION_WORDS = {
    "half": "fp16", "single": "fp32", "double": "fp64", "float": "fp32", "float16": "fp16", "float32": "fp32",
    "float64": "fp64", "bfloat16": "bf16", "fp16": "fp16", "fp32": "fp32", "fp64": "fp64", "bf16": "bf16",
    "tf32": "tf32", "fp8": "fp8", "int8": "int8", "int4": "int4", "amp": "mixed (AMP)", "mixed": "mixed",
}  # fmt: skip
# A column that numbers the repeats of one configuration (run 0, 1, 2): neither a setting nor a measurement.
_REPEAT = re.compile(r"^(run|trial|repeat|rep|seed|index|idx|id|sample)s?([ _]?(id|no|num|number|index))?$")
_WHOLE_ROLES = ("batch", "count", "nodes")
_NUMBER_ROLES = ("price", "power", "cost", "time", "step")


def names_measurement(name: str) -> bool:
    """Whether a column's name (or a unit in its header) says it holds something measured."""
    return bool(_MEASUREMENT.search(name.replace(".", " "))) or bool(unit_from_header(name)[1])


def precision_word(text: str) -> str:
    """'half' → 'fp16', 'bfloat16' → 'bf16'; "" for anything else."""
    return _PRECISION_WORDS.get(text.strip().lower(), "")


def _present(col: pd.Series) -> pd.Series:
    text = col.astype(str).str.strip()
    return text[~text.str.lower().isin(MISSING_MARKERS)]


def _misfit(col: pd.Series, whole: bool, zero: bool = False) -> tuple[int, str] | None:
    """(position, cell) of the first filled cell that is not a number (a whole number above 0 when `whole`, or 0
    too when `zero`)."""
    for pos, cell in _present(col).items():
        parts = split_number(cell.replace("\u202f", ""))
        number = float(parts[0].replace(",", "").replace("_", "")) if parts else None
        if number is None or (whole and (number % 1 != 0 or number < (0 if zero else 1))):
            return int(col.index.get_loc(pos)), cell
    return None


def fit_roles(raw: pd.DataFrame, m: ImportMapping) -> list[str]:
    """Demote every column whose cells do not fit its role (in `m`): numbers become a measurement, text a note.
    Returns what was demoted, one line each (shown in the mapping step and on the CLI's stderr)."""
    said = []
    for col, role in list(m.roles.items()):
        if col not in raw.columns or role not in _WHOLE_ROLES + _NUMBER_ROLES:
            continue
        whole = role in _WHOLE_ROLES
        bad = _misfit(raw[col], whole)
        if bad is None or (m.fmt and role == "count" and _misfit(raw[col], whole=True, zero=True) is None):
            continue  # a known format's count may be 0 where its format says so (MLPerf: no accelerator, see devices)
        pos, cell = bad
        numbers = _misfit(raw[col], whole=False) is None
        m.roles[col] = "value" if numbers else "label"
        if numbers:
            base, unit = unit_from_header(col)
            m.values[col] = m.values.get(col) or ValueSpec(base, unit)
        what = "a whole number above 0" if whole else "a number"
        said.append(
            f"column {col!r} is not the {role} (row {int(raw['_row'].iloc[pos])} holds {cell!r}, not {what}): "
            f"read as {'a measurement' if numbers else 'a note (kept as text)'}"
        )
    return said


def _numbers(col: pd.Series) -> pd.Series:
    return pd.to_numeric(_present(col).str.replace(",", "", regex=False), errors="coerce")


def _splits_rows(values: pd.Series, rows: int) -> bool:
    """Values that repeat and split the rows into groups: 2+ distinct, each group 2+ rows on average."""
    distinct = values.nunique()
    return rows >= 4 and 2 <= distinct <= rows / 2 and values.notna().all()


def _is_setting(raw: pd.DataFrame, col: str, measured: list[str]) -> bool:
    """A unitless column of whole numbers that repeats and groups the rows, with a setting's name or with a
    measurement varying inside its groups; in a one-record file where no column is named as measured, any unitless
    number."""
    if names_measurement(col):
        return False
    nums = _numbers(raw[col])
    if nums.empty or nums.isna().any() or _present(raw[col]).map(lambda c: (split_number(c) or ("", ""))[1]).any():
        return False
    if len(raw) == 1:  # one record: its unnamed numbers are settings only where nothing is named as measured
        return measured == []
    if (nums % 1 == 0).all() and nums.nunique() == 1 and len(nums) > 1:
        return True  # one whole number on every row, named as nothing measured (`iters` 50): what the run was set to
    if not ((nums % 1 == 0).all() and _splits_rows(nums, len(raw))):
        return False
    if _SETTING_NAME.search(col):
        return True
    groups = raw[col]
    return any(_numbers(raw[c]).groupby(groups).nunique().max() > 1 for c in measured if c != col)


def _bytes(col: pd.Series) -> pd.Series:
    parts = col.astype(str).map(split_number)
    return pd.Series(
        [float(p[0].replace(",", "")) * (unit_factor(p[1] or "B", "B") or float("nan")) if p else float("nan")
         for p in parts], index=col.index
    )  # fmt: skip


def _ladder(col: pd.Series, unit: str = "") -> np.ndarray:
    """The distinct sizes of a column in bytes, smallest first (a cell's own unit, else the header's `unit`)."""
    sizes = _bytes(col) * (unit_factor(unit, "B") or 1.0 if unit else 1.0)
    return np.unique(sizes.to_numpy(dtype=float))


def _ratio(col: pd.Series, unit: str = "") -> float:
    sizes = _ladder(col, unit)
    return float((sizes[1:] / sizes[:-1]).mean())


def _is_size_sweep(col: pd.Series, unit: str = "") -> bool:
    """Sizes in bytes whose distinct values climb by one factor (nccl-tests' `-f 2` from 8 B to 8 GiB, out-of-place and
    in-place rows of each size; all_reduce_bench's 32KiB … 16GiB), their unit in the cells or the header (`size
    (B)`): the swept parameter of a communication benchmark, never a memory reading."""
    sizes = _bytes(col)
    in_cells = col.astype(str).str.contains(r"[KMGT]i?B|\bB\b", regex=True).any()
    if len(sizes) < 4 or sizes.isna().any() or (sizes <= 0).any() or not (in_cells or unit_factor(unit, "B")):
        return False
    ladder = _ladder(col, unit)
    steps = ladder[1:] / ladder[:-1]
    return bool(len(ladder) >= 4 and steps.max() - steps.min() < 1e-9 * steps.max())


def find_settings(raw: pd.DataFrame, m: ImportMapping) -> list[str]:
    """Move value columns that are settings to the role `setting`, the precision words to `precision`, and the
    global batch to `batch` (the micro-batch to a setting). Returns what it did, one line each."""
    said = []
    values = m.columns("value")
    named = [c for c in values if names_measurement(c)]
    for col in values:
        if _REPEAT.match(col.lower()) and _numbers(raw[col]).notna().all():
            m.roles[col] = "label"  # repeats of one configuration are grouped (their spread is noise), never charted
            m.values.pop(col, None)
            said.append(f"column {col!r} numbers repeats: kept as a note; the repeats of a configuration are grouped")
            continue
        spec = m.values.get(col)
        if _is_size_sweep(raw[col], spec.unit if spec else ""):
            ratio = _ratio(raw[col], spec.unit if spec else "")
            m.roles[col] = "setting"
            m.values.pop(col, None)
            said.append(f"column {col!r} is a swept size (each size ×{ratio:g} the last): a setting, not a measurement")
            continue
        if (spec and spec.unit) or (len(raw) == 1 and m.fmt) or _is_global_batch(col):  # the batch: below
            continue
        if _is_setting(raw, col, named if named or len(raw) == 1 else values):
            m.roles[col] = "setting"
            m.values.pop(col, None)
            said.append(f"column {col!r} is a setting (its values repeat and group the rows): each value is its own "
                        "configuration, never pooled")  # fmt: skip
    said += _global_batch(raw, m) + _precision_column(raw, m)
    if not m.columns("value") and values:
        m.roles.update({c: "value" for c in values if m.roles[c] == "setting" and len(raw) > 1})
    return said


def _is_global_batch(column: str) -> bool:
    return "batch" in column.lower() and "global" in column.lower()


def _global_batch(raw: pd.DataFrame, m: ImportMapping) -> list[str]:
    batch = m.column("batch")
    wide = [c for c, r in m.roles.items() if r in ("value", "setting") and _is_global_batch(c)]
    if not wide or batch == wide[0] or _misfit(raw[wide[0]], whole=True) is not None:
        return []
    if batch:
        m.roles[batch] = "setting"
    m.roles[wide[0]] = "batch"
    m.values.pop(wide[0], None)
    return [f"batch: {wide[0]!r} (the global batch)" + (f"; {batch!r} is a setting (per replica)" if batch else "")]


def _precision_column(raw: pd.DataFrame, m: ImportMapping) -> list[str]:
    """A text column whose values are all precisions is the precision (it was taken as the device)."""
    if m.column("precision"):
        return []
    for col, role in m.roles.items():
        cells = _present(raw[col]) if col in raw.columns else pd.Series(dtype=str)
        if role in ("device", "system", "label", "model") and len(cells) and cells.map(precision_word).all():
            m.roles[col] = "precision"
            return [f"column {col!r} holds precisions ({', '.join(sorted(cells.unique()))}): the precision, "
                    "not the device"]  # fmt: skip
    return []


def setting_columns(df: pd.DataFrame) -> list[str]:
    """The `setting.*` columns of History rows that hold a value."""
    return [c for c in df.columns if str(c).startswith(SETTING) and df[c].notna().any()]
