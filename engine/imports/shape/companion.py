"""Companion tables: two files of one benchmark that share a key column — a throughput table and, beside it, a
table of the batch size each cell ran at (lambdal's `pytorch-train-throughput-fp32.csv` and
`pytorch-train-bs-fp32.csv`). The batch table is joined as each row's batch size, never imported as values, and
only into a table of its own family (same framework, precision and mode): many files dropped at once never lend
one family's batch sizes to another.

Pure pandas; no streamlit.
"""

from __future__ import annotations

import re

import pandas as pd

from engine.imports.facts.raw import Raw
from engine.imports.read.foreign_text import split_number

_BATCH_WORDS = {"bs", "batch", "batchsize", "batches"}


def is_batch_table(name: str) -> bool:
    """A file named as a table of batch sizes: '…-bs-fp32.csv', 'batch_size.csv', 'batch-sizes.tsv'."""
    stem = name.rsplit(".", 1)[0].lower()
    return bool(set(re.split(r"[^a-z0-9]+", stem)) & _BATCH_WORDS) or "batch_size" in stem or "batchsize" in stem


def key_column(raw: Raw) -> str:
    """The column that names each row's system or device (the key two companion tables share), or ""."""
    return raw.guess.column("system") or raw.guess.column("device")


_MODES = {"train": "train", "training": "train", "inference": "inference", "infer": "inference"}


def family(name: str, raw: Raw) -> tuple[str, str, str]:
    """The family a file belongs to: its framework and precision (the file name's, as the mapping read them:
    `pytorch-train-bs-fp32.csv` → PyTorch, fp32) and whether it trained or inferred. A batch table completes
    only a table of its own family: PyTorch fp32 batch sizes say nothing of a TensorFlow fp16 run."""
    words = set(re.split(r"[^a-z0-9]+", name.lower()))
    mode = next((_MODES[w] for w in sorted(words) if w in _MODES), "")
    constants = raw.guess.constants
    return constants.get("framework", ""), constants.get("precision", ""), mode


def companions(raws: dict[str, Raw]) -> dict[str, str]:
    """Batch-size table name → the loaded table it completes: same family (`family`), same key column, and the
    most value columns of the same name (models) in common; none when no table of its family is loaded."""
    out = {}
    for name, raw in raws.items():
        key = key_column(raw)
        if not is_batch_table(name) or not key:
            continue
        cols = set(raw.guess.columns("value"))
        shared = {
            other: len(cols & set(o.guess.columns("value")))
            for other, o in raws.items()
            if other != name and not is_batch_table(other) and key_column(o) == key
            and family(other, o) == family(name, raw)
        }  # fmt: skip
        best = max((o for o in shared if shared[o]), key=lambda o: shared[o], default="")
        if best:
            out[name] = best
    return out


def _cell(text: str) -> str:
    """A key cell as compared: numbers by value ('1.0', '1', ' 1 ' → '1'), text with its spaces trimmed."""
    text = text.strip()
    try:
        number = float(text.replace(",", ""))
    except ValueError:
        return text
    return f"{number:g}" if number == number else text


def _keys(raw: Raw, columns: list[str]) -> pd.Series:
    """Each row's key: the shared key columns' cells ('A100 80GB SXM4|8'), by the row's number."""
    text = raw.frame[columns].astype(str).map(_cell).agg("|".join, axis=1)
    return pd.Series(text.to_numpy(), index=raw.frame["_row"].astype(str))


def join_batch(rows: pd.DataFrame, file_name: str, main: Raw, companion: Raw) -> tuple[pd.DataFrame, int]:
    """`rows` (mapped from `file_name`, read as `main`) with `global_batch_size` from the companion's cell for the
    same key (the system column, and the device count column when both have it) and the same value column;
    returns the rows and how many got a batch size. A cell that is not a whole number above 0 (blank, OOM)
    leaves the row's batch as it was."""
    # a name column read as a system in one file and a device in the other (their cells differ) is still the key
    kind = {"system": "name", "device": "name", "count": "count"}
    shared = [c for c, r in main.guess.roles.items() if r in kind]
    shared = [c for c in shared if kind.get(companion.guess.roles.get(c, "")) == kind[main.guess.roles[c]]]
    theirs = _keys(companion, shared)
    lookup: dict[tuple[str, str], int] = {}
    for column in companion.guess.columns("value"):
        for key, cell in zip(theirs, companion.frame[column].astype(str), strict=True):
            parsed = split_number(cell)
            number = pd.to_numeric(parsed[0].replace(",", ""), errors="coerce") if parsed else float("nan")
            if pd.notna(number) and number > 0 and float(number) % 1 == 0:
                lookup[(key, column)] = int(number)
    ours = _keys(main, shared)
    parts = rows["run_id"].str.slice(len(file_name) + 1).str.split(":", n=1)  # file:row:column
    batch = pd.array([lookup.get((ours.get(p[0], ""), p[1])) for p in parts], dtype="Int64")
    out = rows.copy()
    out["global_batch_size"] = pd.Series(batch, index=rows.index).fillna(rows["global_batch_size"].astype("Int64"))
    return out, int(pd.Series(batch).notna().sum())


def join_note(companion: str, matched: int, rows: int) -> tuple[str, bool]:
    """What a join did, and whether to warn (none, or under half, of the rows got a batch size)."""
    text = f"Batch size from **{companion}** (the same system row and model column): {matched:,} of {rows:,} rows."
    if matched * 2 >= rows:
        return text, False
    return text + (" None matched" if matched == 0 else " Few matched") + (
        ": the two files' key columns or model columns differ — turn the join off, or check the files are a pair."
    ), True
