"""The Streamlit process never imports TensorFlow: every page is rendered and sys.modules is checked."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from conftest import ROOT


def test_pages_and_cli_paths_do_not_import_tensorflow(db):
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from pathlib import Path
        from streamlit.testing.v1 import AppTest
        import engine.runs.jobs, engine.runs.store, engine.catalog.specs, engine.runs.hardware, engine.catalog.catalog, engine.cli
        pages = [Path({str(ROOT)!r}) / "app.py", *sorted((Path({str(ROOT)!r}) / "pages").glob("*.py"))]
        for page in pages:
            at = AppTest.from_file(str(page), default_timeout=120).run()
            assert not at.exception, (page.name, [e.message for e in at.exception])
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("tensorflow", "keras", "tf_keras"))
        print("LOADED", loaded[:5])
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "LOADED []" in proc.stdout, proc.stdout
