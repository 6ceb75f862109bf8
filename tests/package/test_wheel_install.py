"""Install AccelBench the way a Colab/Kaggle user does (issue 32): build the wheel from this checkout, put it
into a fresh virtual environment that already holds a framework (Keras 3.14.0, a supported release other than
the suite's pin), `pip install "accelbench[jax]"` from the wheel, and check that the framework was left alone
and that `accelbench run --bench matmul` and `accelbench results export` work there — from the installed
package's own reference data and a store in ~/.accelbench, with no repository around it. With no TensorFlow
there (issue 45), `data sample` writes flowers JPEGs and Keras on JAX trains on them; with Keras removed, a
matmul still runs on JAX.

Real pip, real venv, real worker; Keras 3.14.0 comes from the package index (pip's cache after the first run),
JAX, pandas and the rest as pip resolves them. About two minutes on two cores.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from built_wheel import build_wheel, clean_env

from engine.catalog.framework_support import SUPPORT, TESTED, TORCH_CPU_INDEX, has_nvidia_device, outside_range

pytestmark = pytest.mark.slow

PREINSTALLED_KERAS = "3.14.0"  # what the runtime "came with": supported, and not requirements.txt's pin


def _sh(*argv: str | Path, cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{argv} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, Path | dict[str, str] | str]:
    """A fresh venv with Keras 3.14.0 preinstalled, then accelbench[jax] from a wheel built here."""
    assert TESTED["keras"] != PREINSTALLED_KERAS and outside_range("keras", PREINSTALLED_KERAS) is None
    tmp = tmp_path_factory.mktemp("wheel")
    home, work = tmp / "home", tmp / "work"
    home.mkdir()
    work.mkdir()
    env = clean_env(home)
    wheel = build_wheel(tmp, env)
    _sh(sys.executable, "-m", "venv", tmp / "env", cwd=tmp, env=env)
    bin_dir = tmp / "env" / "bin"
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    _sh(bin_dir / "pip", "install", "-q", f"keras=={PREINSTALLED_KERAS}", cwd=work, env=env)
    install = _sh(bin_dir / "pip", "install", f"{wheel}[jax]", cwd=work, env=env)
    return {"bin": bin_dir, "env": env, "work": work, "home": home, "install_log": install.stdout}


def _version(bin_dir: Path, dist: str, env: dict[str, str], cwd: Path) -> str:
    code = f"import importlib.metadata as m; print(m.version({dist!r}))"
    return _sh(bin_dir / "python", "-c", code, cwd=cwd, env=env).stdout.strip()


def test_installing_the_jax_extra_leaves_the_preinstalled_keras_alone(installed):
    bin_dir, env, work = installed["bin"], installed["env"], installed["work"]
    assert _version(bin_dir, "keras", env, work) == PREINSTALLED_KERAS
    collected = next(line for line in installed["install_log"].splitlines() if line.startswith("Installing collected"))
    assert "keras" not in collected.lower() and "accelbench" in collected
    assert (
        SUPPORT["jax"].minimum
        <= tuple(int(n) for n in _version(bin_dir, "jax", env, work).split(".")[:3])
        < SUPPORT["jax"].below
    )
    where = _sh(
        bin_dir / "python",
        "-c",
        "import engine, engine.paths as p; print(engine.__file__, p.installed())",
        cwd=work,
        env=env,
    )
    assert "site-packages" in where.stdout and where.stdout.split()[-1] == "True"
    code = "import importlib.metadata as m; d = m.metadata('accelbench'); print(d['License-Expression'], *d.get_all('Project-URL'), sep='|')"
    license_, *urls = _sh(bin_dir / "python", "-c", code, cwd=work, env=env).stdout.strip().split("|")
    assert license_ == "Apache-2.0" and any(u.startswith("Repository, https://") for u in urls), urls


def test_accelbench_runs_matmul_and_exports_from_the_installed_package(installed):
    bin_dir, env, work, home = installed["bin"], installed["env"], installed["work"], installed["home"]
    assert {"run", "devices", "models", "results", "cancel", "compare", "db", "sweep"} <= set(
        _sh(bin_dir / "accelbench", "--help", cwd=work, env=env).stdout.split("{")[1].split("}")[0].split(",")
    )
    run = _sh(bin_dir / "accelbench", "run", "--bench", "matmul", "--backend", "jax", "--m", "64", "--n", "64", "--k", "64",
              "--repeats", "3", "--warmup", "1", "--json", cwd=work, env=env)  # fmt: skip
    row = json.loads(run.stdout.strip().splitlines()[-1])
    assert row["status"] == "ok" and row["backend"] == "jax" and row["gflops"] > 0
    assert row["keras_version"] == PREINSTALLED_KERAS and row["framework_version"].startswith("jax ")
    assert "outside the range" not in run.stderr  # a supported Keras gives no warning
    assert (home / ".accelbench" / "accelbench.db").is_file()  # no repository: results live in ~/.accelbench
    _sh(bin_dir / "accelbench", "results", "export", "--out", "runs.csv", cwd=work, env=env)
    assert row["run_id"] in (work / "runs.csv").read_text()
    # every reference file the engine loads, from the wheel's own copy (engine.paths), read as the engine reads it
    code = (
        "from engine.reference.data import REFERENCE_CSV, load_reference; from engine.catalog.prices import PRICES_CSV; "
        "from engine.compare.rank.efficiency import SOURCE_POWER_CSV as P; "
        "print(len(load_reference()), *(f.is_file() and 'site-packages' in str(f) for f in (REFERENCE_CSV, PRICES_CSV, P)))"
    )
    count, *packaged = _sh(bin_dir / "python", "-c", code, cwd=work, env=env).stdout.split()
    assert int(count) > 100 and packaged == ["True"] * 3


def test_a_missing_backend_is_one_line_naming_the_extra_that_adds_it(installed):
    bin_dir, env, work = installed["bin"], installed["env"], installed["work"]
    done = subprocess.run([bin_dir / "accelbench", "run", "--bench", "matmul", "--backend", "torch"], cwd=work, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    # a CPU-only machine gets PyTorch's CPU wheels first, not PyPI's CUDA build (GBs)
    cpu_first = "" if has_nvidia_device() else f"pip install torch --index-url {TORCH_CPU_INDEX} && "
    assert done.stderr.strip().splitlines() == [
        f'accelbench: error: --backend: PyTorch is not installed here; install it with: {cpu_first}pip install "accelbench[torch]"'
    ]


def test_with_only_jax_a_run_that_names_no_backend_runs_on_jax(installed):
    """A JAX-only runtime (Colab's TPU): the default backend is the installed one, said on stderr; the
    command line, the usage and the empty-store hint all say `accelbench`."""
    bin_dir, env, work = installed["bin"], installed["env"], installed["work"]
    empty = {**env, "HOME": str(work / "empty-home")}
    hint = _sh(bin_dir / "accelbench", "results", "list", cwd=work, env=empty).stdout.strip()
    assert hint == "no runs yet — try: accelbench run --bench matmul"
    assert _sh(bin_dir / "accelbench", "--help", cwd=work, env=env).stdout.startswith("usage: accelbench ")
    run = _sh(bin_dir / "accelbench", "run", "--bench", "matmul", "--m", "64", "--n", "64", "--k", "64",
              "--repeats", "3", "--warmup", "1", "--json", cwd=work, env=env)  # fmt: skip
    row = json.loads(run.stdout.strip().splitlines()[-1])
    assert row["status"] == "ok" and row["backend"] == "jax", row
    assert "TensorFlow is not installed here: running on JAX" in run.stderr and "started on jax" in run.stderr


def test_a_missing_postgres_driver_or_ray_is_one_line_naming_the_extra(installed):
    """The core install has neither psycopg nor Ray: `results push` to a team database (a closed loopback
    port; the driver is missing before any connection) and `sweep --on ray://` each say the one install."""
    bin_dir, env, work = installed["bin"], installed["env"], installed["work"]
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for argv, extra in (
        (("results", "push", "--to", f"postgresql://me@127.0.0.1:{port}/team"), "postgres"),
        (("sweep", "--models", "tiny_cnn", "--backends", "jax", "--on", f"ray://127.0.0.1:{port}"), "ray"),
    ):
        done = subprocess.run([bin_dir / "accelbench", *argv], cwd=work, env=env, capture_output=True, text=True,
                              timeout=300)  # fmt: skip
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert lines[0].startswith("accelbench: error:") and f'pip install "accelbench[{extra}]"' in lines[0]


def test_a_jax_only_runtime_samples_flowers_and_trains_on_them_with_three_rates(installed):
    """No TensorFlow in this venv (nor PyTorch): `data sample` writes the folder layout with the extra's Pillow,
    and Keras on JAX trains on it through the NumPy/PIL pipeline, with the three rates and the bound."""
    bin_dir, env, work = installed["bin"], installed["env"], installed["work"]
    assert "tensorflow" not in _sh(bin_dir / "pip", "list", cwd=work, env=env).stdout.lower()
    sample = _sh(bin_dir / "accelbench", "data", "sample", "flowers", "--out", "flowers", "--examples", "40",
                 cwd=work, env=env)  # fmt: skip
    assert "writing the folder layout" in sample.stderr
    try_line = sample.stdout.strip().splitlines()[-1]
    assert try_line == "try: accelbench run --model flowers_cnn --dataset flowers --data-dir flowers"
    run = _sh(bin_dir / "accelbench", "run", "--model", "tiny_cnn", "--dataset", "flowers", "--data-dir", "flowers",
              "--batch-size", "8", "--epochs", "2", "--steps-per-epoch", "3", "--json", cwd=work, env=env,
              timeout=600)  # fmt: skip
    row = json.loads(run.stdout.strip().splitlines()[-1])
    assert row["status"] == "ok" and row["backend"] == "jax", row.get("error")
    for key in ("input_examples_per_sec", "step_examples_per_sec", "examples_per_sec"):
        assert row[key] > 0, key
    assert 0 <= row["input_wait_pct"] <= 100 and row["bound"] in ("input", "compute", "balanced")
    assert "NumPy/PIL pipeline (no TensorFlow)" in row["notes"] and "36 training examples" in row["notes"]


def test_a_framework_outside_the_range_is_warned_about_and_kept(installed):
    """Next to last: it swaps the env's Keras for 3.5.0 (below the supported >=3.6), as an older runtime would have."""
    bin_dir, env, work = installed["bin"], installed["env"], installed["work"]
    _sh(bin_dir / "pip", "install", "-q", "keras==3.5.0", cwd=work, env=env)
    run = _sh(bin_dir / "accelbench", "run", "--bench", "matmul", "--backend", "jax", "--m", "32", "--n", "32", "--k", "32",
              "--repeats", "2", "--warmup", "1", "--json", cwd=work, env=env)  # fmt: skip
    warnings = [line for line in run.stderr.splitlines() if line.startswith("accelbench: warning:")]
    assert warnings == [
        "accelbench: warning: keras 3.5.0 is outside the range AccelBench supports (>=3.6,<4; tested "
        f"{TESTED['keras']}): running on it anyway, its numbers may differ"
    ]
    row = json.loads(run.stdout.strip().splitlines()[-1])
    assert row["status"] == "ok" and row["keras_version"] == "3.5.0"  # the row says what it ran on
    assert _version(bin_dir, "keras", env, work) == "3.5.0"  # never upgraded


def test_jax_without_keras_still_runs_a_matmul(installed):
    """Last of all: Keras uninstalled (a runtime with jax and jaxlib only). A matmul is JAX's own op: it runs on
    JAX, named or by default, and only a training run asks for the extra that brings Keras."""
    bin_dir, env, work = installed["bin"], installed["env"], installed["work"]
    _sh(bin_dir / "pip", "uninstall", "-q", "-y", "keras", cwd=work, env=env)
    run = _sh(bin_dir / "accelbench", "run", "--bench", "matmul", "--m", "32", "--n", "32", "--k", "32",
              "--repeats", "2", "--warmup", "1", "--json", cwd=work, env=env)  # fmt: skip
    row = json.loads(run.stdout.strip().splitlines()[-1])
    assert row["status"] == "ok" and row["backend"] == "jax" and row["keras_version"] is None, row
    done = subprocess.run([bin_dir / "accelbench", "run", "--model", "tiny_cnn", "--backend", "jax"], cwd=work,
                          env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        'accelbench: error: --backend: JAX runs Keras 3, which is not installed here; install it with: pip install "accelbench[jax]"'
    ]
