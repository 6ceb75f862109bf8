"""The worker's host memory cap (`TrainSpec.host_memory_limit_mb`): RLIMIT_AS on this process.

Set before the framework is imported, so the framework's own allocator meets the limit and fails the
way it fails on a full machine (JAX/XLA: `RESOURCE_EXHAUSTED: Out of memory allocating N bytes`;
NumPy/TensorFlow host allocations: MemoryError) — a real out-of-memory at a size that depends only on
the run, which `engine sweep --max-batch` can search for on a CPU. The limit counts virtual memory, so
it includes the framework's own reservations (about 1.5 GB for JAX on a CPU).
"""

from __future__ import annotations

import resource
from pathlib import Path

# Under an address-space cap a new thread's stack is an mmap like any other allocation: when the cap is
# reached, Python's threading (used by XLA and TF's runtimes) fails with this instead of MemoryError.
_THREAD_WORDS = "can't start new thread"


def address_space_capped() -> bool:
    """Whether this process runs under an RLIMIT_AS cap (its own or inherited)."""
    return cap_mb() is not None


def is_capped_out_of_memory(exc: BaseException) -> bool:
    """A failure that means the address-space cap was reached, though it does not say "memory"."""
    return isinstance(exc, RuntimeError) and _THREAD_WORDS in str(exc) and address_space_capped()


def cap_mb() -> float | None:
    """This process's address-space cap in MiB; None when it runs uncapped."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft / 2**20


def room_mb() -> float | None:
    """MiB of address space the cap leaves this process now; None when it runs uncapped (or Linux's
    /proc/self/status, which says how much it holds, is not there)."""
    cap = cap_mb()
    if cap is None:
        return None
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return None
    held_kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmSize:")), None)
    return None if held_kb is None else cap - held_kb / 1024


def apply_host_memory_limit(limit_mb: int) -> None:
    """Cap this process's address space at `limit_mb` MiB (0: leave it as it is).

    Only the soft limit: the cap is the run's, not the worker's, so `lift_host_memory_limit` can take it
    off again to record the result — a full address space fails SQLite's mapping of its WAL index as
    "disk I/O error", and the run would be lost instead of recorded as out of memory."""
    if limit_mb <= 0:
        return
    limit_bytes = limit_mb * 2**20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit_bytes = min(limit_bytes, hard)  # a soft limit may not exceed the hard one
    resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, hard))


def lift_host_memory_limit() -> None:
    """Raise the soft address-space limit back to the hard one (the run is over; its record must land)."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
