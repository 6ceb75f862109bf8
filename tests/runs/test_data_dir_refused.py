"""A `--data-dir` that holds no readable set — missing, empty, JPEGs without class folders — is refused by the
launcher in one line, exit 2, before a worker starts or a row is stored (issue 45: the worker found it after
15–35 s and stored a failed row)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from engine.catalog.data_files import image_listing
from engine.catalog.fields import SpecError
from engine.runs.store import Store


def _folder(tmp_path: Path, kind: str) -> Path:
    folder = tmp_path / "flowers"
    if kind == "missing":
        return folder
    folder.mkdir()
    if kind == "class-less":
        for i in range(3):
            (folder / f"{i:06d}.jpg").write_bytes(b"\xff\xd8 not decoded by the check")
    if kind == "other files":
        (folder / "README.txt").write_text("no images here")
    return folder


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("missing", "does not exist"),
        ("empty", "(an empty folder), and no class folders of JPEGs"),
        ("class-less", "has 3 JPEG(s) but no class folders: put each class's JPEGs in its own folder"),
        ("other files", "no *.tfrec or *.tfrecord files in"),
    ],
)
def test_the_listing_says_what_is_wrong_and_what_to_do(tmp_path, kind, says):
    folder = _folder(tmp_path, kind)
    with pytest.raises(SpecError) as caught:
        image_listing(str(folder))
    assert caught.value.field == "--data-dir" and says in caught.value.message and str(folder) in caught.value.message
    assert "engine data sample flowers" in caught.value.message or kind == "missing"


@pytest.mark.parametrize("kind", ["missing", "empty", "class-less"])
def test_run_refuses_the_folder_before_a_worker_starts(db, tmp_path, kind):
    folder = _folder(tmp_path, kind)
    proc = run_cli("run", "--model", "tiny_cnn", "--dataset", "flowers", "--data-dir", str(folder), "--batch-size", "4")
    assert proc.returncode == 2, proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("accelbench: error: --data-dir: ") and str(folder) in lines[0]
    assert not db.exists() or Store(db).count_runs() == 0


def test_class_folders_and_tfrecords_are_listed(tmp_path):
    (tmp_path / "f" / "roses").mkdir(parents=True)
    (tmp_path / "f" / "roses" / "a.jpg").write_bytes(b"x")
    assert image_listing(str(tmp_path / "f"))[:3] == ("folder", [str(tmp_path / "f" / "roses" / "a.jpg")], [0])
    (tmp_path / "f" / "x.tfrec").write_bytes(b"")
    assert image_listing(str(tmp_path / "f"))[0] == "tfrecord"  # TFRecord files directly in it come first
