"""A compile killed mid-build leaves an empty `.so` in inductor's shared cache; the next torch run removes it
(an old one only: a peer rank's build in progress is left alone)."""

from __future__ import annotations

import os
import time

import pytest

pytest.importorskip("torch")


def test_an_old_empty_kernel_is_removed_and_a_fresh_one_kept(tmp_path, monkeypatch):
    from engine.worker.torch_native import step

    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))
    torn = tmp_path / "ab" / "torn.so"
    fresh = tmp_path / "cd" / "fresh.so"
    whole = tmp_path / "ef" / "whole.so"
    for f in (torn, fresh, whole):
        f.parent.mkdir(parents=True)
    torn.write_bytes(b"")
    fresh.write_bytes(b"")
    whole.write_bytes(b"\x7fELF")
    old = time.time() - 2 * step.TORN_AGE_S
    os.utime(torn, (old, old))
    os.utime(whole, (old, old))

    assert step.drop_torn_kernels() == 1
    assert not torn.exists() and fresh.exists() and whole.exists()
