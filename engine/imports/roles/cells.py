"""A mapping's role read from a file's cells: numbers in the column's unit ('67388 MiB', '1,234.5'), a
text role, a number role, each from its column or the value given for every row. Raises CsvError naming the row
and column. Pure pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.imports.facts.import_mapping import ImportMapping
from engine.imports.facts.units import unit_factor
from engine.imports.read.foreign_text import MISSING_MARKERS, first_bad, split_number
from engine.results.errors import CsvError


def numbers(raw: pd.DataFrame, column: str, unit: str, whole: bool = False) -> tuple[pd.Series, pd.Series]:
    """(values, missing) of a column: '1,234.5', '67388 MiB' (when MiB is the column's unit), '1.0' for a count."""
    text = raw[column].astype(str).str.replace("\u202f", "", regex=False)
    missing = text.str.lower().isin(MISSING_MARKERS)
    parts = text.map(split_number)
    num = parts.map(lambda p: p[0].replace(",", "").replace("_", "") if p else None)
    cell_unit = parts.map(lambda p: p[1] if p else "")
    values = pd.to_numeric(num, errors="coerce")
    bad = ~missing & (values.isna() | ~np.isfinite(values.fillna(0)))
    if bad.any():
        raise first_bad(raw, bad, column, "expected a number, got {raw}")
    factor = cell_unit.map(lambda u: 1.0 if u in ("", unit) else unit_factor(u, unit))
    values = values * factor.fillna(1.0)  # '32KiB' in a MiB column is 0.03125
    wrong_unit = ~missing & factor.isna()
    if wrong_unit.any():
        raise first_bad(raw, wrong_unit, column, f"expected a number in {unit or 'the column unit'}, got " + "{raw}")
    if whole:
        bad = ~missing & ((values % 1 != 0) | (values <= 0))
        if bad.any():
            raise first_bad(raw, bad, column, "expected a whole number above 0, got {raw}")
    return values.where(~missing), missing


def text_role(raw: pd.DataFrame, m: ImportMapping, role: str, constants: dict[str, str]) -> pd.Series | None:
    col = m.column(role)
    if col:
        return raw[col].astype(str).replace("", None)
    if role in constants:
        return pd.Series(constants[role], index=raw.index, dtype=object)
    return None


def number_role(
    raw: pd.DataFrame, m: ImportMapping, role: str, constants: dict[str, str], whole: bool
) -> pd.Series | None:
    col = m.column(role)
    if col:
        return numbers(raw, col, "", whole)[0]
    if role in constants:
        parsed = split_number(constants[role])
        if parsed is None:
            raise CsvError(f"the sidecar's {role} is not a number: {constants[role]!r}")
        return pd.Series(float(parsed[0].replace(",", "")), index=raw.index)
    return None
