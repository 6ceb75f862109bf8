"""Uploads are bounded on the server; deployments hide tracebacks; SECURITY.md matches DEPLOY.md (issue 15, classes 8-9)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from streamlit.testing.v1 import AppTest

from engine.catalog.demo import DEMO_MAX_UPLOAD_MB

ROOT_DIR = Path(__file__).resolve().parents[2]


def test_the_demo_config_caps_uploads_and_hides_tracebacks_and_otherwise_matches_the_dev_config():
    demo = tomllib.loads((ROOT_DIR / "deploy" / "demo.config.toml").read_text())
    dev = tomllib.loads((ROOT_DIR / ".streamlit" / "config.toml").read_text())
    assert demo["server"]["maxUploadSize"] == DEMO_MAX_UPLOAD_MB
    assert demo["client"]["showErrorDetails"] in ("none", False)
    demo["server"]["maxUploadSize"] = dev["server"]["maxUploadSize"]
    del demo["client"]["showErrorDetails"]
    assert demo == dev


def test_deploy_and_security_docs_agree_on_the_settings():
    deploy = (ROOT_DIR / "DEPLOY.md").read_text()
    security = (ROOT_DIR / "SECURITY.md").read_text()
    for text in (deploy, security):
        assert "deploy/demo.config.toml" in text
    assert f"--server.maxUploadSize {DEMO_MAX_UPLOAD_MB}" in deploy and "--client.showErrorDetails none" in deploy
    for where in ("check_demo_caps", "insert_run_unless_active", "owns_run", "from_uploads", "StoreError"):
        assert where in security and where in deploy, where


class _LyingUpload:
    """An upload whose claimed size is small while the bytes that arrived are many."""

    def __init__(self, data: bytes):
        self.name, self.file_id, self.size, self._data = "big.csv", "f1", 10, data

    def getbuffer(self):
        return memoryview(self._data)

    def getvalue(self):
        raise AssertionError("an oversized upload must not be read for parsing")


def _script():
    import streamlit as st

    from ui.history_load import from_uploads

    big = b"x" * (3 * 2**20)
    (item,) = from_uploads([st.session_state["upload"](big)], max_bytes=2 * 2**20)
    st.write(f"{item.kind}: {item.error}")


def test_an_upload_over_the_cap_is_refused_by_its_received_bytes_before_parsing():
    at = AppTest.from_function(_script)
    at.session_state["upload"] = _LyingUpload
    at.run(timeout=30)
    assert not at.exception, at.exception
    assert at.markdown[0].value == "error: the file is 3.0 MB; this demo reads files up to 2 MB"
