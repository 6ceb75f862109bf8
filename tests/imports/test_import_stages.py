"""The importer laid out as its data flows (issue 43 item 7): engine/imports/ is one package per stage — read
(bytes → tables) → shape (wide, long, nested, text → rows) → roles (settings, measurements, units, counts) →
identity (systems, devices) → view (default chart, Compare's pick) — with `facts/` (the mapping every stage fills,
units, device names, the read file) read by all; `reading.py` (`read_raw`: read → shape → roles, a first mapping)
and `importer.py` (`apply_import`: the mapping applied → identity → rows) call the stages in turn, the same for the
History page and the CLI. A stage imports only `facts/` and earlier stages, never a later one or an entry module:
checked on the source (every `import` of every module), so a backwards import fails here, whichever test ran."""

from __future__ import annotations

import ast
from pathlib import Path

import engine.imports

PACKAGE = Path(engine.imports.__file__).parent
STAGES = ("read", "shape", "roles", "identity", "view")  # in the order the data flows
ENTRIES = ("reading", "importer")


def _imported(path: Path) -> set[str]:
    """The engine.imports modules a file imports ('engine.imports.shape.shapes', …)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine.imports"):
            out |= {f"{node.module}.{a.name}" for a in node.names} if node.module == "engine.imports" else {node.module}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("engine.imports")}
    return out


def _place(module: str) -> str:
    """'facts', a stage's name, or 'entry' for a module of engine.imports."""
    part = module.removeprefix("engine.imports.").split(".")[0]
    return part if part in (*STAGES, "facts") else "entry"


def test_every_module_sits_in_a_stage_facts_or_is_an_entry():
    loose = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in (*ENTRIES, "__init__"))
    assert not loose, f"modules outside a stage package: {loose}"
    assert {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()} == {*STAGES, "facts"}


def test_a_stage_imports_only_the_facts_and_earlier_stages():
    backwards = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = _place("engine.imports." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts))
        if here == "entry":
            continue
        for module in _imported(path):
            there = _place(module)
            ok = there == "facts" if here == "facts" else there == "facts" or (
                there in STAGES and STAGES.index(there) <= STAGES.index(here))
            if not ok:
                backwards.append(f"{path.relative_to(PACKAGE)} imports {module} ({here} → {there})")
    assert not backwards, "\n".join(backwards)


def test_the_page_and_the_cli_read_and_map_through_the_same_entries():
    root = PACKAGE.parents[1]
    for user in ("engine/cli/imports.py", "ui/history_load.py", "ui/history_import.py"):
        used = _imported(root / user)
        assert {"engine.imports.reading", "engine.imports.importer"} & used, f"{user} skips the pipeline's entries"
