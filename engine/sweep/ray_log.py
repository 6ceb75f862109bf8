"""Ray Client's own threads (its data, log and release channels, and gRPC's) in a `--on ray` sweep: when the head
goes away they report it with tracebacks — logged, or raised in the thread — which say nothing the sweep does
not say in one line (engine.sweep.ray_dispatch). They go to a log file beside the runs, never to the terminal."""

from __future__ import annotations

import logging
import os
import threading
import traceback
from pathlib import Path
from types import TracebackType

from engine.runs.store import Store

# Ray Client's loggers: its channels' (dataclient, worker) propagate to the first; its log channel's does not (Ray's
# choice), so with no handler of its own Python's last resort prints its `Unexpected exception:` traceback
CLIENT_LOGGERS = ("ray.util.client", "ray.util.client.logsclient")
_RAYS = (f"{os.sep}ray{os.sep}", f"{os.sep}grpc{os.sep}")  # a frame of Ray's or gRPC's package


def _from_ray(tb: TracebackType | None) -> bool:
    return any(part in frame.filename for frame in traceback.extract_tb(tb) for part in _RAYS)


def log_path(store: Store) -> Path:
    """Where a sweep's Ray Client messages go: beside the store's run folders."""
    return store.runs_dir / "ray_client.log"


def keep_in_log(path: Path) -> Path:
    """From now on, Ray Client's log records and the uncaught exceptions of threads that fail inside Ray or gRPC
    are written to `path` (appended); other threads' exceptions are printed as before. Returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s: %(message)s"))
    for name in CLIENT_LOGGERS:
        client = logging.getLogger(name)
        client.addHandler(handler)
        client.propagate = False  # Ray's own handler (on the `ray` logger) prints to stderr
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not _from_ray(args.exc_traceback):
            previous(args)
            return
        thread = args.thread.name if args.thread is not None else "a thread"
        lines = traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)
        with path.open("a") as f:  # one block per failure: the thread's name, then its traceback
            f.write(f"exception in Ray's thread {thread}:\n{''.join(lines)}")

    threading.excepthook = hook
    return path
