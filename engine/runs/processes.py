"""A worker's process as this machine sees it: when it started, whether that exact process still runs
(not a later one that reused its PID), and stopping its whole process group."""

from __future__ import annotations

import os
import signal


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
