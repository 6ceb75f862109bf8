"""The input pipeline's settings of a training run (issue 38): `--input-workers`, `--prefetch`, `--cache`.

Pure (no framework import): the CLI, sweeps and pages refuse a bad setting before a worker starts.
  input_workers: parallel decode calls (tf.data num_parallel_calls / interleave cycle, torch DataLoader
    num_workers); 0 = AUTOTUNE (tf.data tunes it; torch takes the host's cores).
  prefetch: batches made ahead of the step (tf.data prefetch; torch prefetch_factor per worker); 0 = AUTOTUNE.
  cache: keep the decoded images in memory after the first pass (tf.data cache); off = decode every epoch,
    as a pipeline streaming files from storage does.
Only datasets read from files have a pipeline to set (flowers: TFRecords or a folder of JPEGs).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.catalog.fields import SpecError, boolean, whole

AUTO = 0  # input_workers / prefetch: AUTOTUNE
INPUT_BOUNDS: dict[str, tuple[float, float]] = {"input_workers": (0, 256), "prefetch": (0, 1024)}
FILE_DATASETS = ("flowers",)


def auto_or_whole(d: dict[str, Any], key: str) -> int:
    """A count, or "auto"/"autotune" for AUTO (how the CLI and sweep axes write it)."""
    v = d[key]
    if isinstance(v, str) and v.strip().lower() in ("auto", "autotune"):
        return AUTO
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        v = int(v)
    try:
        return whole({key: v}, key, INPUT_BOUNDS)
    except SpecError as exc:
        raise SpecError(exc.field, exc.message.replace("a whole number", "auto or a whole number")) from None


def input_fields(d: dict[str, Any]) -> dict[str, Any]:
    """The checked pipeline fields; a setting on a dataset without a file pipeline is refused in one line."""
    out = {
        "input_workers": auto_or_whole(d, "input_workers"),
        "prefetch": auto_or_whole(d, "prefetch"),
        "cache": boolean(d, "cache"),
    }
    given = [k for k in ("input_workers", "prefetch") if out[k] != AUTO] + (["cache"] if out["cache"] else [])
    if given and d.get("dataset") not in FILE_DATASETS:
        raise SpecError(
            "--" + given[0].replace("_", "-"),
            f"sets the input pipeline of a dataset read from files (--dataset {', '.join(FILE_DATASETS)}); "
            f"{d.get('dataset')!r} has none to set",
        )
    return out


def stored(input_workers: int, prefetch: int, cache: bool, cores: int) -> dict[str, Any]:
    """The row's pipeline columns: None for AUTOTUNE, and the host cores the pipeline could use."""
    return {
        "input_workers": input_workers or None,
        "prefetch": prefetch or None,
        "cache": cache,
        "input_cores": cores,
    }


@dataclass(frozen=True)
class InputSettings:
    """A run's pipeline settings as the worker applies them; 0 = AUTOTUNE."""

    workers: int = AUTO
    prefetch: int = AUTO
    cache: bool = False

    @classmethod
    def of(cls, spec: Any) -> InputSettings:
        return cls(spec.input_workers, spec.prefetch, spec.cache)

    def describe(self) -> str:
        workers = self.workers or "AUTOTUNE"
        prefetch = self.prefetch or "AUTOTUNE"
        return f"input workers {workers}, prefetch {prefetch}, cache {'on' if self.cache else 'off'}"


def users_folder(data_dir: str) -> str:
    """`--data-dir` as the user meant it: the worker starts in another folder, so a relative path is made absolute
    here (a gs:// path and "" stay as they are)."""
    return str(Path(data_dir).expanduser().resolve()) if data_dir and "://" not in data_dir else data_dir
