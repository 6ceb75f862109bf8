"""`--cache` under a host memory cap (issue 45): a decoded set that cannot fit in the room the cap leaves fails the
run before its first step with one line that says so and what to do — on tf.data, torch's DataLoader and the
NumPy/PIL pipeline (Keras on JAX) — not a graph error or "Caught MemoryError in DataLoader worker process 1".
And torch's DataLoader caches at all: the first pass decodes, later ones read memory."""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest
from conftest import last_json

from engine.catalog import catalog
from engine.catalog.input_spec import InputSettings
from engine.worker.sample_data import write_sample

CAP_MB = 4000  # room for any of the three frameworks to start on a CPU (JAX needs about 1.5 GB, TF about 3)


@pytest.fixture(scope="module")
def too_big(tmp_path_factory):
    """TFRecords whose decoded images (192x192x3 bytes each) are more than the whole cap: 8x8 JPEGs, one sampled
    file of 256 records copied — a few tens of MB on disk, whatever the framework holds when the check runs."""
    out = tmp_path_factory.mktemp("cache_cap") / "set"
    write_sample(str(out), 256, "tfrecord", 8, 8)
    (first,) = out.glob("*.tfrec")
    height, width, channels = catalog.DATASETS["flowers"].input_shape
    copies = int(CAP_MB * 2**20 / (height * width * channels) / 256) + 1
    for k in range(copies):
        shutil.copy(first, out / f"copy{k:04d}.tfrec")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["tensorflow", "torch", "jax"])
def test_a_cache_that_cannot_fit_under_the_cap_fails_in_one_line_saying_what_to_do(too_big, cli, backend):
    proc = cli(
        "run", "--model", "tiny_cnn", "--dataset", "flowers", "--data-dir", str(too_big), "--backend", backend,
        "--batch-size", "4", "--epochs", "1", "--steps-per-epoch", "2", "--cache",
        "--host-memory-limit-mb", str(CAP_MB), "--json", timeout=600,
    )  # fmt: skip
    row = last_json(proc.stdout)
    assert proc.returncode == 1 and row["status"] == "failed", row
    said = row["error"]
    assert said.startswith("CacheDoesNotFit: --cache keeps the decoded set in memory: ") and "\n" not in said, said
    assert f"the host memory cap leaves this run (--host-memory-limit-mb {CAP_MB})" in said, said
    assert "— drop --cache, or raise --host-memory-limit-mb to " in said, said
    assert row.get("examples_per_sec") is None, row  # refused before training, not after filling memory


def _pass_of(batches: list) -> tuple[list[int], float]:
    """One pass's class ids (sorted) and pixel total: the same images in any order give the same pair."""
    ys = sorted(int(v) for _, y in batches for v in np.asarray(y))
    return ys, float(sum(np.asarray(x, dtype=np.float64).sum() for x, _ in batches))


@pytest.mark.slow
def test_torch_cache_decodes_the_files_once_then_every_pass_comes_from_memory(tmp_path):
    from engine.worker.torch_native import loader

    write_sample(str(tmp_path / "s"), 20, "folder", 16, 16)  # 18 training examples: 3 batches of 6 a pass
    pipe = loader.flowers(str(tmp_path / "s"), 6, False, InputSettings(workers=1, prefetch=1, cache=True), "cpu")
    first = [next(pipe.train) for _ in range(3)]
    shutil.rmtree(tmp_path / "s")  # a later pass that read a file would fail naming it
    later = [next(pipe.train) for _ in range(6)]
    assert all(tuple(x.shape) == (6, 192, 192, 3) and float(x.max()) <= 1.0 for x, _ in first + later)
    assert _pass_of(first)[0] == _pass_of(later[:3])[0] == _pass_of(later[3:])[0]
    assert _pass_of(first)[1] == pytest.approx(_pass_of(later[:3])[1], rel=1e-6)
    assert [int(v) for _, y in later[:3] for v in y] != [int(v) for _, y in later[3:] for v in y]  # reshuffled


def test_an_out_of_memory_under_a_cap_with_cache_on_says_to_drop_the_cache():
    """Past the check (it counts the images, not the framework's copies), memory can still run out while the cache
    fills: the reason then names --cache beside the batch size — only where the run is capped and caches."""
    code = (
        "from engine.worker.host_limit import apply_host_memory_limit; from engine.worker.main import explain; "
        "e = MemoryError('Unable to allocate 3.1 GiB'); print(explain(e, cached=True)); "
        "apply_host_memory_limit(10**6); print(explain(e, cached=False)); print(explain(e, cached=True))"
    )
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    uncapped, capped_no_cache, capped_cache = said.strip().splitlines()
    assert (
        uncapped == capped_no_cache == "out of memory: Unable to allocate 3.1 GiB — try a smaller batch size or shape"
    )
    assert capped_cache.startswith("out of memory: Unable to allocate 3.1 GiB — drop --cache "), capped_cache
    assert "raise --host-memory-limit-mb, or try a smaller batch size or shape" in capped_cache
