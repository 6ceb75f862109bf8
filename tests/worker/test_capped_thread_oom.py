"""Under a host memory cap, a thread that cannot start is the cap reached (seen in CI: XLA's runtime failed
with "can't start new thread" at the batch that did not fit), so the max-batch search must read it as out of memory."""

import subprocess
import sys

PROBE = """
import sys
from engine.worker.host_limit import apply_host_memory_limit
from engine.worker.main import explain
if sys.argv[1] == "capped":
    apply_host_memory_limit(4096)
print(explain(RuntimeError("can't start new thread")))
"""


def _explain(mode: str) -> str:
    proc = subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip().splitlines()[-1]


def test_a_thread_that_cannot_start_under_the_cap_is_out_of_memory():
    line = _explain("capped")
    assert line.startswith("out of memory: can't start new thread"), line
    assert "host memory cap" in line


def test_without_a_cap_it_stays_the_error_it_was():
    assert _explain("free") == "RuntimeError: can't start new thread"
