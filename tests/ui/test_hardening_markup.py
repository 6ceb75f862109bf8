"""User data is text, never markup: Markdown on pages, HTML in plotly labels (issue 15, class 3)."""

from __future__ import annotations

import pandas as pd
from conftest import run_row
from streamlit.testing.v1 import AppTest

from engine.charts.compare import compare_bars
from engine.runs.store import Store
from ui.common import plain

LINK = "[click me](http://evil.example)"
HTML = '<b>bold</b><a href="http://evil.example">x</a>'


def full_row(run_id: str, **over) -> dict:
    return run_row(0, run_id=run_id, **over)


def test_plain_escapes_markdown_directives_latex_and_html():
    assert plain(f"{LINK} **b**\n# h") == "\\[click me\\](http\\://evil.example) \\*\\*b\\*\\* # h"
    assert plain(":red[x] $x$ <b>&") == "\\:red\\[x\\] \\$x\\$ \\<b\\>\\&"
    assert plain("# not a heading") == "\\# not a heading" and plain("1. not a list") == "1\\. not a list"
    assert plain("see www.evil.example") == "see www\\.evil.example"
    assert plain("fashion_cnn 1.5 _em_") == "fashion_cnn 1.5 \\_em\\_"


def test_a_run_page_shows_imported_names_and_notes_as_text(db):
    from conftest import ROOT

    Store(db).insert_run(
        full_row("20260101-000000-abcdef", status="failed", model=LINK, notes=HTML, error=LINK, device_name=HTML)
    )
    at = AppTest.from_file(str(ROOT / "pages" / "run.py"), default_timeout=60)
    at.query_params["run"] = "20260101-000000-abcdef"
    at.run()
    assert not at.exception, at.exception
    shown = [str(e.value) for e in (*at.markdown, *at.caption, *at.info, *at.error, *at.warning)]
    assert any("click me" in s for s in shown), shown
    for s in shown:
        assert "[click me]" not in s and "<b>" not in s, s


def test_plotly_labels_and_hover_texts_are_escaped():
    rows = pd.DataFrame(
        {"label": [HTML, "a & b"], "value_canonical": [1.0, 2.0], "origin": ["<i>run</i>", "reference"]}
    )
    fig = compare_bars(rows, "GFLOP/s", True)
    labels = [y for t in fig.data for y in (t.y or ())]
    names = [t.name for t in fig.data]
    assert '&lt;b&gt;bold&lt;/b&gt;&lt;a href="http://evil.example"&gt;x&lt;/a&gt;' in labels
    assert "a &amp; b" in labels and "&lt;i&gt;run&lt;/i&gt;" in names
    assert set(fig.layout.yaxis.categoryarray) == set(labels)  # the order names the escaped categories
