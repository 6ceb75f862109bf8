"""Shared fixtures and helpers for every test package (tests/<package>/ mirrors engine/<package>/).

Test modules import the helpers with `from conftest import ...` (pytest puts tests/ on sys.path);
keep test file names unique across the sub-folders, which have no __init__.py.
"""

from __future__ import annotations

import gzip
import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.runs.hardware import detect_accelerators  # noqa: E402 (needs ROOT on sys.path)

_ACC = detect_accelerators()  # NVML and device files only: no TensorFlow
needs_no_gpu = pytest.mark.skipif(
    bool(_ACC.gpus or _ACC.tpu),
    reason="checks what AccelBench does on a machine without a GPU or TPU; this machine has one",
)


@pytest.fixture
def db(tmp_path, monkeypatch) -> Path:
    """ACCELBENCH_DB pointing at a fresh file for this test (the worker inherits it); demo mode off."""
    path = tmp_path / "results.db"
    monkeypatch.setenv("ACCELBENCH_DB", str(path))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    return path


def run_cli(*args: str, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m engine ARGS` from the repo root with the current environment (+ env)."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", **(env or {})},
    )


@pytest.fixture
def cli(db):
    return run_cli


def last_json(stdout: str) -> dict[str, Any]:
    """The JSON object a `--json` command prints on its last line."""
    return json.loads(stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def ref():
    """The curated reference table (data/reference/reference_numbers.csv), loaded once per module."""
    from engine.reference.data import load_reference

    return load_reference()


@pytest.fixture
def fresh_keras():
    """Clear Keras's global state after the test (layer name counters, graphs); use with usefixtures."""
    yield
    import keras

    keras.backend.clear_session()


# a proxy that refuses connections: a download attempt fails at once, online or off
NO_NETWORK = {
    "HTTPS_PROXY": "http://127.0.0.1:9",
    "HTTP_PROXY": "http://127.0.0.1:9",
    "https_proxy": "http://127.0.0.1:9",
}


def _idx(path: Path, array: np.ndarray, magic: int) -> None:
    header = struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in array.shape)
    with gzip.open(path, "wb") as f:
        f.write(header + array.astype(np.uint8).tobytes())


def write_keras_cache(home: Path, rng: np.random.Generator) -> dict:
    """Tiny copies of the Keras dataset files, in Keras's cache layout and file formats."""
    cache = home / "datasets"
    fm = cache / "fashion-mnist"
    fm.mkdir(parents=True)
    x_train = rng.integers(0, 256, (12, 28, 28), dtype=np.uint8)
    y_train = rng.integers(0, 10, 12, dtype=np.uint8)
    x_test = rng.integers(0, 256, (6, 28, 28), dtype=np.uint8)
    y_test = rng.integers(0, 10, 6, dtype=np.uint8)
    _idx(fm / "train-images-idx3-ubyte.gz", x_train, 2051)
    _idx(fm / "train-labels-idx1-ubyte.gz", y_train, 2049)
    _idx(fm / "t10k-images-idx3-ubyte.gz", x_test, 2051)
    _idx(fm / "t10k-labels-idx1-ubyte.gz", y_test, 2049)
    np.savez(cache / "mnist.npz", x_train=x_train[::-1], y_train=y_train, x_test=x_test, y_test=y_test)
    # ragged word-id sequences as object arrays, like the real reuters.npz / imdb.npz
    seqs = [list(rng.integers(1, 12_000, n)) for n in (5, 320, 40, 7, 9, 11, 13, 15, 17, 19)]
    ragged = np.empty(len(seqs), dtype=object)
    ragged[:] = [[int(w) for w in s] for s in seqs]
    np.savez(cache / "reuters.npz", x=ragged, y=np.arange(10) % 46)
    np.savez(
        cache / "imdb.npz", x_train=ragged[:6], y_train=np.arange(6) % 2, x_test=ragged[6:], y_test=np.arange(4) % 2
    )
    return {"fashion": (x_train, y_train, x_test, y_test), "seqs": seqs}


def write_flowers(folder: Path, counts: tuple[int, ...], ext: str = "tfrec") -> list[tuple[int, tuple[int, int, int]]]:
    """TFRecords like the public flowers set (the engine's own writer: 'image' = JPEG bytes, 'class' = int64 and
    the set's other features). Each class has its own solid colour so a test can tell that image and label stayed
    together."""
    import tensorflow as tf

    from engine.worker.sample_data import example, jpeg

    folder.mkdir(parents=True, exist_ok=True)
    colours = [(230, 20, 20), (20, 230, 20), (20, 20, 230), (230, 230, 20), (20, 230, 230)]
    written, k = [], 0
    for f, n in enumerate(counts):
        with tf.io.TFRecordWriter(str(folder / f"flowers{f:02d}-{n}.{ext}")) as w:
            for _ in range(n):
                cls = k % 5
                img = np.full((40, 30, 3), colours[cls], np.uint8)  # not 192×192: must be resized
                w.write(example(jpeg(img), cls, width=30, height=40))
                written.append((cls, colours[cls]))
                k += 1
    return written


def run_row(i: int, **extra) -> dict:
    """A finished result row as the store holds it (matmul on the CPU)."""
    from engine.results.schema import COLUMN_NAMES

    row: dict[str, Any] = {name: None for name in COLUMN_NAMES}
    row.update(
        schema_version=1,
        run_id=f"20260101-1200{i % 60:02d}-{i:06x}",
        created_at=f"2026-01-{1 + i % 28:02d}T12:00:{i % 60:02d}Z",
        status="ok",
        source="local",
        kind="matmul",
        model="matmul",
        dataset="synthetic",
        shape="(512x512)@(512x512)",
        dtype="float32",
        precision="float32",
        xla=False,
        device="cpu",
        strategy="none",
        replicas=1,
        time_to_first_step_s=0.09,
        step_time_ms_median=2.33 + i % 7,
        step_time_ms_p10=2.1,
        step_time_ms_p90=3.0,
        total_s=0.12,
        gflops=115.2 - i % 5,
        peak_gflops=166.2,
        devices_used="/job:localhost/replica:0/task:0/device:CPU:0",
        device_name="AMD EPYC",
        host_cores=2,
        host_memory_gb=23.5,
        tf_version="2.21.0",
    )
    row.update(extra)
    return row


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server for this test session (tests/pg_server.py)."""
    from pg_server import PgServer, find_bin

    if not (find_bin("initdb") and find_bin("pg_ctl")):
        if os.environ.get("ACCELBENCH_REQUIRE_POSTGRES") == "1":
            pytest.fail("PostgreSQL's initdb/pg_ctl are not installed (scripts/test.sh installs Debian's postgresql)")
        pytest.skip("PostgreSQL is not installed here (scripts/test.sh installs it)")
    server = PgServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_db(request, tmp_path):
    """A factory of fresh, empty results databases on each engine: a SQLite path, or a database on the
    session's PostgreSQL server. Tests taking it run once per engine."""
    made: list[str] = []

    def make(name: str = "results") -> str:
        if request.param == "sqlite":
            made.append(str(tmp_path / f"{name}-{len(made)}.db"))
        else:
            made.append(request.getfixturevalue("pg_server").new_database())
        return made[-1]

    make.engine = request.param  # type: ignore[attr-defined]
    yield make
    if made and request.param == "postgresql":
        request.getfixturevalue("pg_server").drop_databases()


@pytest.fixture(scope="session")
def seeded(tmp_path_factory):
    """A database with one finished matmul and one finished training run, made by the real engine (once per
    session: the page tests under tests/ui/ only read it)."""
    db = tmp_path_factory.mktemp("pages") / "results.db"
    env = {"ACCELBENCH_DB": str(db)}
    for args in (
        ("run", "--bench", "matmul", "--m", "64", "--n", "64", "--k", "64", "--repeats", "5", "--json"),
        ("run", "--model", "tiny_cnn", "--dataset", "synthetic", "--batch-size", "32", "--epochs", "2",
         "--steps-per-epoch", "3", "--json"),
    ):  # fmt: skip
        proc = run_cli(*args, env=env)
        assert proc.returncode == 0, proc.stderr[-2000:]
    from engine.runs.store import Store

    runs = {r["kind"]: r for r in Store(db).list_runs()}
    return db, runs


@pytest.fixture
def db_env(seeded, monkeypatch):
    db, runs = seeded
    monkeypatch.setenv("ACCELBENCH_DB", str(db))
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    return db, runs


def save_fixture_models(folder: Path, *builders: str) -> list[Path]:
    """Save tests/fixtures/models.py's builders as `.keras` files (in a subprocess under JAX: this process
    keeps its own Keras backend), one `<builder>.keras` each."""
    paths = [folder / f"{name}.keras" for name in builders]
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from tests.fixtures import models; "
        "[getattr(models, n).__call__().save(p) for n, p in zip(sys.argv[2].split(','), sys.argv[3:])]"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(ROOT), ",".join(builders), *map(str, paths)],
        capture_output=True, text=True, timeout=120, env={"KERAS_BACKEND": "jax", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return paths


# folders whose tests start real runs, clusters, browsers and installs: sent to the workers first (xdist hands out
# the groups in collection order), so that the many quick tests fill the end instead of one long file
HEAVY_FIRST = ("sweep", "package", "worker", "e2e", "compare")


def pytest_collection_modifyitems(config, items):
    """Heavy folders first (HEAVY_FIRST); a stable sort, so a file's tests keep their order."""

    def rank(item) -> int:
        folder = item.path.parent.name
        return HEAVY_FIRST.index(folder) if folder in HEAVY_FIRST else len(HEAVY_FIRST)

    items.sort(key=rank)


def work_group(nodeid: str) -> str:
    """The unit one pytest-xdist worker takes whole: a test file (its module fixtures built once, its tests in
    order), and one unit for every Ray file, so that two Ray clusters never start at once on a 2-core host."""
    path = nodeid.split("::", 1)[0]
    return "ray" if "ray" in path.rsplit("/", 1)[-1] else path


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`scripts/test.sh` runs the suite on two workers; each takes whole work_group units. A scheduler rather than
    xdist_group marks: pytest-xdist 3.8 writes a mark into `item._nodeid`, which pytest 9 no longer reads, so
    under `--dist loadgroup` every test was its own unit (module fixtures rebuilt on both workers)."""
    if config.getvalue("dist") != "loadgroup":  # another --dist asked for: xdist's own scheduler
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByWorkGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_group(nodeid)

    return ByWorkGroup(config, log)
