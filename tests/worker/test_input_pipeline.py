"""The input pipeline beside the step (issue 38), on real files written by `engine data sample`: every real-data
run reports the pipeline alone, the step alone, the training rate, the input wait and the bound; large JPEGs
through one input worker are input-bound on every backend that runs here; synthetic runs are compute-bound."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from conftest import last_json, run_cli

from engine.catalog.input_bound import BOUND_RULE_TEXT, classify_bound
from engine.worker import tfrecord_read

BIG = (4000, 3000)  # ~3 MB JPEGs: a few hundred ms to decode each, far slower than tiny_cnn's step on 2 images
HUGE = (6000, 4500)  # for JAX, whose CPU convolutions make tiny_cnn's step ~10x slower than TensorFlow's here


@pytest.fixture(scope="module")
def sets(tmp_path_factory) -> dict[str, Path]:
    """The small set through the CLI (`engine data sample`); the large ones through the writer that command calls,
    in this process: the same files without three more Python and TensorFlow starts."""
    from engine.worker.sample_data import write_sample

    root = tmp_path_factory.mktemp("input")
    done = run_cli("data", "sample", "flowers", "--out", str(root / "small"), "--examples", "40", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1])["examples"] == 40
    made = {
        "big_tfrecord": (6, "tfrecord", BIG),
        "big_folder": (6, "folder", BIG),
        "huge_tfrecord": (3, "tfrecord", HUGE),
    }
    for name, (examples, layout, (width, height)) in made.items():
        assert write_sample(str(root / name), examples, layout, width, height).examples == examples
    return {name: root / name for name in ("small", *made)}


def test_data_sample_writes_real_jpegs_in_the_seeds_layouts(sets):
    from PIL import Image

    (record_file,) = sorted(sets["small"].glob("*.tfrec"))
    offsets = tfrecord_read.record_offsets(str(record_file))
    assert len(offsets) == 40
    image, label = tfrecord_read.image_and_class(tfrecord_read.read_record(str(record_file), *offsets[7]))
    assert label == 7 % 5 and image[:2] == b"\xff\xd8"  # a JPEG's start-of-image marker
    assert Image.open(io.BytesIO(image)).size == (192, 192)
    classes = sorted(p.name for p in sets["big_folder"].iterdir())
    assert classes == ["daisy", "dandelion", "roses", "sunflowers", "tulips"]
    first = sorted((sets["big_folder"] / "daisy").glob("*.jpg"))[0]
    assert Image.open(first).size == (4000, 3000) and Image.open(first).format == "JPEG"


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (("--examples", "0"), "--examples: must be a whole number from 1"),
        (("--examples", "4", "--size", "3x"), "--size: must be WIDTHxHEIGHT"),
        (("--examples", "4", "--size", "4x9000"), "--size: each side must be from 8"),
    ],
)
def test_data_sample_refuses_bad_flags_in_one_line(tmp_path, flags, says):
    done = run_cli("data", "sample", "flowers", "--out", str(tmp_path / "x"), *flags)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"accelbench: error: {says}"), lines
    assert not (tmp_path / "x").exists()


def _checked(row: dict) -> None:
    """All three rates, the wait and the bound present, and the bound the rule's for the stored numbers."""
    assert row["status"] == "ok", row.get("error")
    for key in ("input_examples_per_sec", "step_examples_per_sec", "examples_per_sec"):
        assert row[key] > 0, key
    assert 0 <= row["input_wait_pct"] <= 100
    expected = classify_bound(
        row["examples_per_sec"], row["input_examples_per_sec"], row["step_examples_per_sec"], row["input_wait_pct"]
    )
    assert row["bound"] == expected
    assert BOUND_RULE_TEXT in row["notes"] and f"bound {row['bound']}" in row["notes"]
    assert row["input_cores"] == len(os.sched_getaffinity(0))


def test_a_flowers_run_on_sampled_files_reports_three_rates_wait_and_bound(sets, cli, db):
    proc = cli(
        "run", "--model", "tiny_cnn", "--dataset", "flowers", "--data-dir", str(sets["small"]), "--batch-size", "8",
        "--epochs", "2", "--steps-per-epoch", "3", "--input-workers", "2", "--prefetch", "2", "--cache", "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    row = last_json(proc.stdout)
    _checked(row)
    assert (row["input_workers"], row["prefetch"], row["cache"]) == (2, 2, True)
    shown = json.loads(cli("results", "show", row["run_id"], "--json").stdout)
    assert {k: shown[k] for k in ("bound", "input_wait_pct", "step_examples_per_sec")} == {
        k: row[k] for k in ("bound", "input_wait_pct", "step_examples_per_sec")
    }
    exported = list(csv.DictReader(io.StringIO(cli("results", "export", "--format", "csv").stdout)))
    assert exported[0]["bound"] == row["bound"] and float(exported[0]["input_examples_per_sec"]) > 0
    assert exported[0]["cache"] == "true" and exported[0]["input_workers"] == "2"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("backend", "layout", "batch"),
    [
        ("tensorflow", "big_tfrecord", "2"),
        ("jax", "huge_tfrecord", "1"),
        ("torch", "big_folder", "2"),
    ],
)
def test_large_jpegs_through_one_input_worker_are_input_bound(sets, cli, db, backend, layout, batch):
    extra = ("--no-compile",) if backend == "torch" else ()
    proc = cli(
        "run", "--model", "tiny_cnn", "--dataset", "flowers", "--data-dir", str(sets[layout]), "--backend", backend,
        "--batch-size", batch, "--epochs", "1", "--steps-per-epoch", "3", "--input-workers", "1", "--prefetch", "1",
        *extra, "--json", timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    row = last_json(proc.stdout)
    _checked(row)
    assert row["bound"] == "input", row["notes"]
    assert (row["input_workers"], row["prefetch"], row["cache"]) == (1, 1, False)
    what = {"tensorflow": "tf.data", "jax": "NumPy/PIL pipeline (no TensorFlow)", "torch": "torch DataLoader"}
    assert what[backend] in row["notes"]


@pytest.mark.slow
def test_keras_on_torch_small_jpegs_are_compute_bound(sets, cli, db):
    """Keras on torch trains tiny_cnn at ~2 examples/s on this CPU, slower than tf.data decodes even 27-megapixel
    JPEGs through one worker (~4/s): no test-sized set makes it input-bound here, so its real-data run is checked
    on the other side of the rule: small JPEGs, a pipeline hundreds of times faster than the step."""
    proc = cli(
        "run", "--model", "tiny_cnn", "--dataset", "flowers", "--data-dir", str(sets["small"]), "--backend",
        "keras-torch", "--batch-size", "2", "--epochs", "1", "--steps-per-epoch", "3", "--json", timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    row = last_json(proc.stdout)
    _checked(row)
    assert row["bound"] == "compute" and row["input_workers"] is None and row["prefetch"] is None  # AUTOTUNE


def test_a_synthetic_run_is_compute_bound_with_its_step_alone(cli, db):
    proc = cli("run", "--model", "tiny_cnn", "--batch-size", "8", "--epochs", "1", "--steps-per-epoch", "3", "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    row = last_json(proc.stdout)
    assert row["bound"] == "compute" and row["input_examples_per_sec"] is None and row["input_wait_pct"] is None
    assert row["step_examples_per_sec"] == pytest.approx(8 * 1000 / row["step_time_ms_median"])
    assert row["input_workers"] is None and row["cache"] is None


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (("--input-workers", "2"), "accelbench: error: --input-workers: sets the input pipeline of a dataset read"),
        (("--dataset", "flowers", "--data-dir", "/tmp", "--prefetch", "x"), "--prefetch: must be auto or a whole"),
        (("--dataset", "flowers", "--data-dir", "/tmp", "--input-workers", "-1"), "--input-workers: must be from 0"),
    ],
)
def test_bad_pipeline_settings_are_refused_before_a_worker_starts(cli, db, flags, says):
    proc = cli("run", "--model", "tiny_cnn", *flags)
    assert proc.returncode == 2 and says in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_input_workers_is_a_sweep_axis():
    from engine.sweep.matrix import SweepError, matrix_from_values

    values = {"models": "tiny_cnn", "datasets": "flowers", "input_workers": "1,2,auto", "data_dir": "/data/flowers"}
    cells = matrix_from_values(values).cells()
    assert [c.request["input_workers"] for c in cells] == [1, 2, 0]
    assert all(c.request["data_dir"] == "/data/flowers" for c in cells) and cells[0].label.endswith(" w1")
    with pytest.raises(SweepError, match="--input-workers: must be whole numbers above 0 or auto"):
        matrix_from_values({**values, "input_workers": "1,0"})
