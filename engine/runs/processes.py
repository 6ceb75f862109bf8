"""A worker's process as this machine sees it: when it started, whether that exact process still runs
(not a later one that reused its PID), and stopping its whole process group; and the signals that stop a
command which waits for runs (`engine run`, `engine sweep`), turned into the Ctrl-C path."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

# What ends a waiting command besides Ctrl-C: SIGTERM (`timeout`, CI runners, `kill`) and SIGHUP (its terminal
# closed, an SSH session dropped). Either cancels what the command waits for: nobody is left to report to.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """A stop signal arrived (`name`: SIGTERM or SIGHUP). A KeyboardInterrupt, so every Ctrl-C path runs for it
    (cancel the run, stop the sweep's worker, cancel its waiting cells); a BaseException, because one raised
    inside a store query as an Exception would come back wrapped as a database error."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def stop_name(exc: BaseException) -> str:
    """What stopped the command, for messages and a cancelled row's reason: SIGTERM, SIGHUP or Ctrl-C."""
    return exc.name if isinstance(exc, Stopped) else "Ctrl-C"


def stop_reason(exc: BaseException, to: str) -> str:
    """A run's reason when the command `to` was stopped: 'cancelled by the user (SIGTERM to the sweep)'."""
    return f"cancelled by the user ({stop_name(exc)} to {to})"


def _raise_stopped(signum: int, frame: object) -> None:
    for sig in STOP_SIGNALS:  # a second one (timeout's, a runner's) must not cut the cancel short
        signal.signal(sig, signal.SIG_IGN)
    raise Stopped(signal.Signals(signum).name)


@contextlib.contextmanager
def stops_as_ctrl_c() -> Iterator[None]:
    """Within: SIGTERM and SIGHUP raise `Stopped` in the main thread, as Ctrl-C raises KeyboardInterrupt."""
    previous = {sig: signal.signal(sig, _raise_stopped) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def create_time(pid: int) -> float:
    try:
        import psutil

        return psutil.Process(pid).create_time()
    except Exception:
        return 0.0


def alive(pid: int, pid_started: float) -> bool:
    """Is this exact process (not a later one that reused the pid) still running?"""
    import psutil

    try:
        proc = psutil.Process(pid)
        if pid_started and abs(proc.create_time() - pid_started) > 1.0:
            return False
        return proc.status() != psutil.STATUS_ZOMBIE
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


def kill_group(pid: int, grace_s: float = 3.0) -> None:
    """SIGTERM the worker's process group, then SIGKILL whatever is left after `grace_s`."""
    import psutil

    try:
        leader = psutil.Process(pid)
        members = [leader, *leader.children(recursive=True)]
    except psutil.Error:
        members = []
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        _, members = psutil.wait_procs(members, timeout=grace_s)
        if not members:
            return


def die_with_parent() -> None:
    """In a child before exec (Linux): SIGKILL this process when its parent dies, so a worker started by a
    Ray task ends with the Ray worker process (killed, or its node lost) instead of running on unwatched."""
    import ctypes

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
