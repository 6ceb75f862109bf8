"""The one build step pyproject.toml cannot say: carry the engine's reference data into the wheel.

The CSVs live in data/reference/ (where the dashboard, the curation scripts and the other helpers edit
them), outside the `engine` package, so setuptools' package data cannot reach them. This copies every
data/reference/*.csv to engine/_data/reference/ in the build, where engine.paths finds them in an installed
wheel. All the metadata is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

REFERENCE_SOURCE = Path(__file__).resolve().parent / "data" / "reference"
REFERENCE_IN_PACKAGE = Path("engine") / "_data" / "reference"  # engine.paths.PACKAGED_REFERENCE_DIR


class BuildWithReferenceData(build_py):
    """build_py, then the reference CSVs into the built package (an editable install reads the checkout's)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / REFERENCE_IN_PACKAGE
        target.mkdir(parents=True, exist_ok=True)
        csvs = sorted(REFERENCE_SOURCE.glob("*.csv"))
        if not csvs:
            raise SystemExit(f"no reference CSVs in {REFERENCE_SOURCE}: build from a checkout or its sdist")
        for csv in csvs:
            shutil.copy2(csv, target / csv.name)


setup(cmdclass={"build_py": BuildWithReferenceData})
