"""A rank that exits leaves its own last error in its rank file, so the run's reason says why — not only
"rank 1 of 2 … exited with code 1" (issue 37). A real rank process (`rank_main.run`) that raises outside its
training, and the reason the agent builds from the files."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT

from engine.worker.launch.ranks import failure_line, read_ranks, write_rank

RAISES_IN_BARRIER = (
    "import sys; from engine.worker.launch.rank_main import run\n"
    "def main(run_dir):\n"
    "    raise RuntimeError('[gloo/transport/tcp/pair.cc:534] Connection closed by peer [127.0.0.1]:4242\\nand more')\n"
    "run(main)\n"
)


def _rank(run_dir, code: str, rank: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "RANK": str(rank), "WORLD_SIZE": "2", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code, str(run_dir)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip


def test_a_rank_that_raises_outside_training_names_its_error_in_the_reason(tmp_path):
    write_rank(tmp_path, 1, {"rank": 1, "state": "joined"})  # it had joined; then the collective failed
    done = _rank(tmp_path, RAISES_IN_BARRIER, 1)
    assert done.returncode == 1 and "Traceback" in done.stderr  # the whole traceback stays in the rank's log
    files = read_ranks(tmp_path, 2)
    assert files[1]["state"] == "joined"  # what the file said is kept
    assert files[1]["error"].startswith("RuntimeError: [gloo/transport/tcp/pair.cc:534] Connection closed by peer")
    assert "and more" not in files[1]["error"] and "(at <string>:3 in main)" in files[1]["error"]
    reason = failure_line({1: (1, 4242, 0.0)}, 2, files)
    assert "rank 1 of 2" in reason and "exited with code 1: RuntimeError: [gloo" in reason, reason


def test_the_first_error_a_rank_wrote_stays_its_reason(tmp_path):
    write_rank(tmp_path, 0, {"rank": 0, "error": "out of memory: … — try a smaller batch size or shape"})
    assert _rank(tmp_path, RAISES_IN_BARRIER, 0).returncode == 1
    assert read_ranks(tmp_path, 2)[0]["error"].startswith("out of memory")
