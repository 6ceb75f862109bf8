"""The package's metadata says what the engine does (issue 32): pyproject.toml's extras carry the ranges of
engine.catalog.framework_support, the console script is the CLI's main, and in this checkout the one lookup
(engine.paths) still finds the repository's data folder. Fast: nothing is built or installed here."""

from __future__ import annotations

import re
import tomllib

import pytest
from conftest import ROOT

from engine import paths, settings
from engine.catalog import backends, framework_support
from engine.catalog.framework_support import SUPPORT, TESTED, outside_range, release
from engine.cli import main
from engine.reference.data import REFERENCE_CSV

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _requirements(extra: str) -> dict[str, str]:
    """{distribution: specifier} of one extra, e.g. {"jax": ">=0.4.34,<0.11", "keras": ">=3.6,<4"}."""
    pairs = (
        re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?(.*)", r.replace(" ", ""))
        for r in PROJECT["optional-dependencies"][extra]
    )
    return {m.group(1).lower(): m.group(2) for m in pairs if m}


def test_each_framework_extra_asks_for_exactly_the_supported_range():
    for extra, frameworks in {
        "tensorflow": ("tensorflow", "keras"),
        "jax": ("jax", "keras"),
        "torch": ("torch", "keras"),
    }.items():
        wanted = {name: SUPPORT[name].specifier for name in frameworks}
        got = _requirements(extra)
        if extra in ("torch", "jax"):  # torch's DataLoader and the NumPy/PIL pipeline decode JPEGs with PIL
            assert got.pop("pillow", None) == ">=10,<14", extra
        assert got == wanted, extra


def test_the_core_installs_no_framework_and_all_holds_every_extra():
    core = " ".join(PROJECT["dependencies"]).lower()
    assert not any(name in core for name in ("tensorflow", "keras", "jax", "torch", "ray", "psycopg", "streamlit"))
    for dep in ("numpy", "pandas", "psutil", "sqlalchemy", "alembic"):
        assert dep in core
    assert all(re.search(r"[<>]", d) and "==" not in d for d in PROJECT["dependencies"] if "nvidia" not in d)
    assert PROJECT["optional-dependencies"]["all"] == ["accelbench[tensorflow,jax,torch,ray,postgres]"]
    assert PROJECT["requires-python"] == ">=3.11"


def test_the_console_script_is_the_engine_cli():
    assert PROJECT["scripts"] == {"accelbench": "engine.cli:main"}
    assert callable(main)


def test_a_checkout_reads_and_writes_the_repository_data_folder():
    assert not paths.installed()  # nothing built lands in the source tree
    assert settings.DATA_DIR == ROOT / "data" and settings.REFERENCE_DIR == ROOT / "data" / "reference"
    assert REFERENCE_CSV == ROOT / "data" / "reference" / "reference_numbers.csv" and REFERENCE_CSV.is_file()
    assert paths.reference_file("prices.csv").is_file() and paths.reference_file("source_power.csv").is_file()


def test_the_suites_pinned_frameworks_lie_inside_the_supported_ranges():
    pinned = dict(line.split("#")[0].strip().split("==") for line in (ROOT / "requirements.txt").read_text().splitlines()
                  if "==" in line.split("#")[0])  # fmt: skip
    for name in ("tensorflow", "keras", "jax"):
        assert pinned[name] == TESTED[name] and outside_range(name, pinned[name]) is None
    assert outside_range("torch", "2.13.0+cpu") is None


@pytest.mark.parametrize(
    ("name", "version", "inside"),
    [("keras", "2.15.0", False), ("keras", "3.6.0", True), ("keras", "4.0.0", False), ("torch", "2.3.1", False),
     ("jax", "0.5.0.dev20250101", True), ("tensorflow", "2.22.0rc0", False), ("tensorflow", "nightly", False)],
)  # fmt: skip
def test_a_version_outside_the_range_is_named_with_the_range(name, version, inside):
    problem = outside_range(name, version)
    assert (problem is None) == inside
    if problem:
        assert version in problem and SUPPORT[name].specifier in problem


def test_release_numbers_ignore_local_and_pre_release_tags():
    assert release("2.13.0+cpu") == (2, 13, 0) and release("v3.6") == (3, 6) and release("dev") is None


def test_in_a_checkout_a_missing_backend_is_named_with_the_suites_pin():
    assert framework_support.install_command("jax") == "pip install jax==0.10.2 jaxlib==0.10.2"
    assert backends.INFO["tensorflow"].install == "pip install tensorflow==2.21.0"
