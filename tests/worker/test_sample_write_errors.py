"""`data sample` on a folder it cannot write (issue 45): read-only, or full (a file-size limit, RLIMIT_FSIZE,
stands in for a full disk: the same OSError from the same write calls) — one line, exit 1, and nothing it
wrote is left, in either layout (TensorFlow's TFRecord writer's errors included)."""

from __future__ import annotations

import ctypes
import os
import re
import resource
import subprocess
import sys

import pytest
from conftest import ROOT

PR_CAPBSET_DROP, CAP_DAC_OVERRIDE = 24, 1  # <linux/prctl.h>, <linux/capability.h>
TF_STARTUP_LOG = re.compile(r"^(WARNING: All log messages before absl::InitializeLog\(\)|[IWE]\d{4} \d\d:\d\d:)")


def _sample(out, *flags: str, preexec=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", "data", "sample", "flowers", "--out", str(out), *flags],
        cwd=ROOT, capture_output=True, text=True, timeout=300, preexec_fn=preexec,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
    )  # fmt: skip


def _as_a_user() -> None:
    """Root writes anywhere through CAP_DAC_OVERRIDE: drop it from the bounding set, so the command that runs
    keeps no capability to pass a folder's mode bits (the file modes then bind root as any owner)."""
    if os.geteuid() == 0 and ctypes.CDLL(None, use_errno=True).prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0):
        raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _one_line(done: subprocess.CompletedProcess, out, says: str) -> None:
    """One line of ours; TensorFlow's C++ start-up log (absl lines it prints at import whatever
    TF_CPP_MIN_LOG_LEVEL says) is not ours to count."""
    lines = [line for line in done.stderr.strip().splitlines() if not TF_STARTUP_LOG.match(line)]
    assert done.returncode == 1 and len(lines) == 1, done.stderr[-3000:]
    assert lines[0].startswith(f"accelbench: error: --out: cannot write {out}: {says}"), lines
    assert lines[0].endswith("nothing was left there — name a writable folder with room")


@pytest.mark.parametrize(
    ("layout", "inside"), [("folder", "new/sub"), pytest.param("tfrecord", "", marks=pytest.mark.slow)]
)  # tfrecord: TensorFlow's import, ~10 s here
def test_a_read_only_folder_is_one_line_and_keeps_nothing(tmp_path, layout, inside):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    out = locked / inside if inside else locked  # a new folder inside it, or the empty folder itself
    done = _sample(out, "--examples", "3", "--layout", layout, preexec=_as_a_user)
    _one_line(done, out, "Permission denied")
    assert list(locked.iterdir()) == []


@pytest.mark.parametrize("layout", ["folder", pytest.param("tfrecord", marks=pytest.mark.slow)])
def test_a_full_disk_is_one_line_and_keeps_nothing(tmp_path, layout):
    limit_bytes = 16 * 1024  # per file: a 500x375 JPEG (~60 kB) is over it, so is a TFRecord file of them

    def full() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))  # Python ignores SIGXFSZ: EFBIG

    out = tmp_path / "made" / "set"
    done = _sample(out, "--examples", "3", "--size", "500x375", "--layout", layout, preexec=full)
    _one_line(done, out, "File too large")
    assert list(tmp_path.iterdir()) == []  # the folders it made are gone too
