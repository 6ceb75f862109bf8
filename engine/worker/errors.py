"""Errors the worker turns into a stored one-line reason, importable without any framework."""

from __future__ import annotations


class PlacementError(RuntimeError):
    """The requested device is not what the framework sees or used."""


class CacheDoesNotFit(RuntimeError):
    """`--cache` would keep more decoded images than the host memory cap leaves room for (image_files.check_cache_fits)."""


DATA_FILE_MARK = "data file: "  # marks the reason inside any text that carries it (see reason_in)
FIX_SAMPLE = "replace or delete the file, or write a clean set with: engine data sample flowers --out DIR"


class DataFileError(RuntimeError):
    """One data file cannot be read: which file, what is wrong with it, what to do.

    Any reader raises it where the file is known (`DataFileError.of(path, problem, fix)`). Its text is one
    marked line, so the reason survives wrappers that keep only text — torch's DataLoader re-raises a worker's
    error as "Caught DataFileError in DataLoader worker process 1" with the original in a traceback string, a
    graph runtime may embed it in its own message — and the worker stores it whole (`reason_in`)."""

    @classmethod
    def of(cls, path: str, problem: str, fix: str = FIX_SAMPLE) -> DataFileError:
        one_line = " ".join(f"{path}: {problem} — {fix}".split())  # a reason is found line by line
        return cls(DATA_FILE_MARK + one_line)


def reason_in(exc: BaseException) -> str | None:
    """The data-file reason carried by `exc`, its causes or any text they hold; None when none is."""
    seen: BaseException | None = exc
    for _ in range(8):  # a chain is short; the bound stops a (rare) cycle of contexts
        if seen is None:
            return None
        for line in str(seen).splitlines():
            at = line.find(DATA_FILE_MARK)
            if at >= 0:
                return line[at:].strip()
        seen = seen.__cause__ or seen.__context__
    return None
