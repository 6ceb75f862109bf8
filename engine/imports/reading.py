"""Another tool's file read as text cells, with a first mapping guessed from its header, its cells, its name and
its folder: the first stage of the one import path (`read_raw` → `engine.imports.importer.apply_import`).
Raises `CsvError`. Pure pandas; no streamlit.
"""

from __future__ import annotations

import hashlib

import pandas as pd

from engine.imports.facts.import_mapping import ImportMapping, one_value_per_metric
from engine.imports.facts.raw import Raw
from engine.imports.read.console_text import read_console, strip_prefixes
from engine.imports.read.foreign_json import JSON_SUFFIXES, describe_json, read_json_table
from engine.imports.read.foreign_text import decode_any, describe, markdown_table, read_text_table
from engine.imports.read.keyvalue_log import is_keyvalue_log, long_record, read_keyvalue_log, split_keys
from engine.imports.read.mllog import is_mllog, read_mllog
from engine.imports.roles.file_hints import name_hints
from engine.imports.roles.settings import find_settings, fit_roles
from engine.imports.shape.shapes import guess_mapping
from engine.imports.shape.time_axis import epoch_seconds, one_record
from engine.results.errors import CsvError


def _read_frame(data: bytes | str, name: str) -> tuple[pd.DataFrame, str, ImportMapping]:
    """The file as text cells, how it was read, and the shapes' first guess."""
    if name.lower().endswith(JSON_SUFFIXES):
        frame = read_json_table(data)
        return frame, describe_json(frame), guess_mapping(frame, is_json=True, name=name)
    text = "\n".join(strip_prefixes(decode_any(data)[0].split("\n")))
    if is_mllog(text):
        frame = read_mllog(text)
        return frame, f"MLPerf log (:::MLLOG), {len(frame):,} evaluations", guess_mapping(frame, name=name)
    if is_keyvalue_log(text):
        frame = read_keyvalue_log(text)
        return frame, f"`key : value` log, {len(frame):,} records", guess_mapping(frame, is_json=True, name=name)
    found = markdown_table(text)
    if found is not None:  # a report of prose around one Markdown table: the table is its data
        table = read_text_table(found[0], delimiter="|", header=True)
        table.frame["_row"] = table.frame["_row"] + found[1] - 1 + 1  # file lines; the rule line was dropped
        return table.frame, f"Markdown table at line {found[1]}", guess_mapping(table.frame, name=name)
    try:
        table = read_text_table(data)
    except CsvError:  # not a delimited table: console output holds its results in aligned columns or summary lines
        console = _console(text, name)
        if console is None:
            raise
        return console
    record = long_record(table.frame) if table.header else None
    if record is not None:
        return record, f"{describe(table)}, one key per row", guess_mapping(record, is_json=True, name=name)
    if len(table.frame.columns) <= 3:  # one or two columns (and `_row`): maybe prose split at its commas
        console = _console(text, name)
        if console is not None:
            return console
    return table.frame, describe(table), guess_mapping(table.frame, headerless=not table.header, name=name)


def _console(text: str, name: str) -> tuple[pd.DataFrame, str, ImportMapping] | None:
    """The results of console output (aligned columns or summary lines); None where it has none."""
    found = read_console(text)
    if found is None:
        return None
    frame, how, flat = found
    return frame, how, guess_mapping(frame, is_json=flat, name=name)


def read_raw(data: bytes | str, name: str, folder: str = "") -> Raw:
    """Read any supported file as text cells and guess its mapping — from its header, its cells, its name and
    `folder` (the path above it, where known). Raises CsvError."""
    digest = hashlib.sha1(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()
    frame, how, guess = _read_frame(data, name)
    guess.said += (
        fit_roles(frame, guess)
        + split_keys(guess)
        + find_settings(frame, guess)
        + epoch_seconds(frame, guess)
        + one_value_per_metric(guess)
    )
    one_record(frame, guess)
    name_hints(guess, name, folder)
    return Raw(frame, how, guess, digest=digest)


def read_alone(data: bytes | str, name: str) -> Raw | None:
    """A file shaped like settings (one flat JSON object) loaded with no table to pair with, read as results when
    any of it is a measurement (a serving benchmark's summary, a report of flat metric keys: LLMPerf, vLLM's
    --save-result); None when it holds settings only (a config.json waiting for its table)."""
    try:
        raw = read_raw(data, name)
    except CsvError:
        return None
    return raw if raw.guess.columns("value") else None

