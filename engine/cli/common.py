"""What every CLI command shares: the exit codes, the one-line error exit, and a run's one-line summary."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NoReturn, TextIO

EXIT_OK, EXIT_FAILED, EXIT_INVALID = 0, 1, 2


def fail(message: str, code: int = EXIT_INVALID) -> NoReturn:
    """Exit with `code` after one line on stderr: `accelbench: error: MESSAGE`."""
    print(f"accelbench: error: {message}", file=sys.stderr)
    sys.exit(code)


def silence(*streams: TextIO) -> None:
    """Point these streams at /dev/null: their reader or terminal is gone, so nothing more is written and the
    interpreter's final flush does not fail (a traceback, exit code 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for stream in streams:
        with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
            os.dup2(devnull, stream.fileno())


@contextlib.contextmanager
def output_may_be_gone() -> Iterator[None]:
    """Print where the terminal may have closed (SIGHUP) or the reader gone: what the command did is in the store
    all the same, so a write that fails drops the rest of the output instead of ending the command."""
    try:
        yield
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        silence(sys.stdout, sys.stderr)


def prog() -> str:
    """The command as the user typed it, for usage lines and hints: `accelbench` (the installed script) or
    `python -m engine` (a checkout's module, or main() called from Python)."""
    return "accelbench" if Path(sys.argv[0] or "").name == "accelbench" else "python -m engine"


def row_line(row: Mapping[str, Any]) -> str:
    """One stored run as one line: id, status, kind, what, device, median, GFLOP/s, examples/s."""

    def f(v: Any, fmt: str) -> str:
        return format(v, fmt) if isinstance(v, (int, float)) else "-"

    what = row.get("model") or row.get("kind")
    return (
        f"{row['run_id']}  {row['status']:<11} {row['kind']:<6} {what:<16} {row.get('device') or '-':<4} "
        f"{row.get('backend') or 'tensorflow':<10} "
        f"median {f(row.get('step_time_ms_median'), '.2f')} ms  {f(row.get('gflops'), '.1f')} GFLOP/s  "
        f"{f(row.get('examples_per_sec'), ',.1f')} ex/s"
    )
