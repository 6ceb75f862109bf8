"""Every data error names its file (issue 45): a corrupt or empty JPEG, a truncated TFRecord — the row's reason is
the reader's own line (file, what is wrong, what to do), not "Graph execution error:" or "Caught …Error in
DataLoader worker process 1". Files are written by the engine's sampler, then damaged on purpose."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import last_json, run_cli

from engine.catalog.input_spec import InputSettings
from engine.worker.errors import DATA_FILE_MARK, DataFileError, reason_in
from engine.worker.main import explain


def _jpegs(root: Path, examples: int = 20) -> list[Path]:
    from engine.worker.sample_data import write_sample

    write_sample(str(root), examples, "folder", 48, 40)
    return sorted(root.glob("*/*.jpg"))


def _corrupt(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:20] + bytes(len(data) - 20))  # the header kept, the picture zeroed: libjpeg gives up


def test_the_reason_survives_a_wrapper_that_keeps_only_text():
    inner = DataFileError.of("/d/roses/1.jpg", "not a readable JPEG (bad\nHuffman code)", "replace it")
    wrapped = RuntimeError(f"Caught DataFileError in DataLoader worker process 1.\nOriginal Traceback:\n  ...\n{inner}")
    assert reason_in(wrapped) == f"{DATA_FILE_MARK}/d/roses/1.jpg: not a readable JPEG (bad Huffman code) — replace it"
    try:
        try:
            raise inner
        except DataFileError as exc:
            raise ValueError("Graph execution error:") from exc
    except ValueError as outer:
        assert explain(outer) == str(inner)
    assert reason_in(ValueError("Graph execution error:")) is None


def _torch_error(data_dir: Path) -> str:
    from engine.worker.torch_native import loader

    with pytest.raises(BaseException) as caught:  # noqa: PT011 — whatever the DataLoader raises, its reason is asked
        pipe = loader.flowers(str(data_dir), 4, False, InputSettings(workers=1), "cpu")
        for _ in range(10):
            next(pipe.train)
    return explain(caught.value)


@pytest.mark.slow
def test_torch_names_a_corrupt_jpeg_an_empty_one_and_a_truncated_tfrecord(tmp_path):
    from engine.worker.sample_data import write_sample

    files = _jpegs(tmp_path / "corrupt")
    for f in files:
        _corrupt(f)
    said = _torch_error(tmp_path / "corrupt")
    assert said.startswith(f"{DATA_FILE_MARK}{tmp_path / 'corrupt'}/") and "not a readable JPEG" in said, said
    assert "engine data sample flowers" in said  # what to do
    files = _jpegs(tmp_path / "empty")
    for f in files:
        f.write_bytes(b"")
    said = _torch_error(tmp_path / "empty")
    assert said.startswith(f"{DATA_FILE_MARK}{tmp_path / 'empty'}/") and "empty (0 bytes), not a JPEG" in said, said
    write_sample(str(tmp_path / "cut"), 20, "tfrecord", 48, 40)
    (record,) = (tmp_path / "cut").glob("*.tfrec")
    record.write_bytes(record.read_bytes()[:-100])  # a copy that stopped early
    said = _torch_error(tmp_path / "cut")
    assert said.startswith(f"{DATA_FILE_MARK}{record}: truncated TFRecord (record 20 needs"), said


@pytest.mark.slow
def test_tf_data_names_the_first_file_it_cannot_decode(tmp_path):
    from engine.worker.datasets import make_dataset
    from engine.worker.flowers_tf import files_named

    files = _jpegs(tmp_path / "f")
    files[3].write_bytes(b"")
    for f in files[5:]:
        _corrupt(f)
    with pytest.raises(DataFileError) as caught, files_named(str(tmp_path / "f")):
        pipe = make_dataset("flowers", "tiny_cnn", 4, data_dir=str(tmp_path / "f"), settings=InputSettings(workers=1))
        for _ in zip(range(10), pipe.train, strict=False):
            pass
    said = explain(caught.value)
    assert said.startswith(f"{DATA_FILE_MARK}{files[3]}: empty (0 bytes), not a JPEG"), said


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["tensorflow", "torch"])
def test_a_corrupt_jpegs_row_names_the_file(db, tmp_path, backend):
    files = _jpegs(tmp_path / "flowers")
    for f in files[::2]:
        _corrupt(f)
    proc = run_cli(
        "run", "--model", "tiny_cnn", "--dataset", "flowers", "--data-dir", str(tmp_path / "flowers"),
        "--backend", backend, "--batch-size", "4", "--epochs", "1", "--steps-per-epoch", "4", "--json",
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr[-3000:]
    row = last_json(proc.stdout)
    assert row["status"] == "failed"
    assert row["error"].startswith(f"{DATA_FILE_MARK}{tmp_path / 'flowers'}/"), row["error"]
    assert "not a readable JPEG" in row["error"] and "engine data sample flowers" in row["error"]
