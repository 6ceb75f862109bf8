"""scripts/test.sh's two pytest-xdist workers take whole units (tests/conftest.py work_group): a file's tests run on
one worker, in order, with its module fixtures built once; every Ray file is one unit."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict

from conftest import ROOT, work_group

FILES = ("tests/catalog/test_hardware_table_2026.py", "tests/catalog/test_prices.py")


def test_a_ray_file_shares_one_unit_and_any_other_file_is_its_own():
    assert work_group("tests/sweep/test_sweep_ray.py::test_a") == work_group("tests/sweep/test_sweep_ray_cli.py::t[x]")
    assert work_group("tests/sweep/test_sweep_local.py::test_a") == "tests/sweep/test_sweep_local.py"
    assert work_group("tests/x/test_array.py::test_b") != work_group("tests/x/test_b.py::test_b")  # "ray" in a word


def test_each_files_tests_run_on_one_worker_in_their_order():
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup", *FILES],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    ran = re.findall(r"\[(gw\d)\] \[\s*\d+%\] PASSED (\S+?)::(\S+)", done.stdout)
    workers, order = defaultdict(set), defaultdict(list)
    for worker, path, name in ran:
        workers[path].add(worker)
        order[path].append(name)
    assert sorted(workers) == sorted(FILES) and all(len(w) == 1 for w in workers.values()), workers
    for path in FILES:  # in the file's own order
        run = list(dict.fromkeys(n.split("[")[0] for n in order[path]))
        defined = re.findall(r"^def (test_\w+)", (ROOT / path).read_text(), re.M)
        assert run == [n for n in defined if n in run] and len(run) > 1, (path, run)
