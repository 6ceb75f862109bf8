"""What the page tests under tests/ui/ share: the page files, their widget-key prefixes, and small
AppTest helpers (the seeded database fixtures `seeded` and `db_env` are in conftest.py)."""

from __future__ import annotations

import json

from conftest import ROOT
from streamlit.testing.v1 import AppTest

APP = str(ROOT / "app.py")
PAGES = {name: str(ROOT / "pages" / f"{name}.py") for name in ("home", "compare", "history", "devices")}
PREFIX = {"home": "home_", "compare": "cmp_", "history": "hist_", "devices": "dev_"}


def page(name: str) -> AppTest:
    return AppTest.from_file(PAGES[name], default_timeout=60)


def specs(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def widget_keys(at) -> list[str]:
    kinds = ("button", "selectbox", "multiselect", "toggle", "number_input", "text_input", "date_input", "checkbox")
    keys = [w.key for kind in kinds for w in getattr(at, kind)]
    keys += [w.proto.id.split("-")[-1] for w in at.get("file_uploader")]
    return keys


def no_exception(at) -> None:
    assert not at.exception, [e.message for e in at.exception]
