"""The wheel a user builds from this checkout (`pip wheel --no-deps -w dist .`), built from a copy of what an sdist
holds so that building writes no build/ or *.egg-info into the checkout that other work shares. Shared by the
wheel-install and notebook tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def clean_env(home: Path) -> dict[str, str]:
    """This environment without the checkout on the path or a store setting, HOME at `home`; pip's real cache."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "ACCELBENCH_DB", "PYTHONHOME")}
    env.update(HOME=str(home), TF_CPP_MIN_LOG_LEVEL="3", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.setdefault("PIP_CACHE_DIR", str(Path("~/.cache/pip").expanduser()))  # the real cache, not the fake home's
    return env


def source_copy(dest: Path) -> Path:
    """What an sdist holds (pyproject.toml, setup.py, MANIFEST.in, README.md, LICENSE, engine/, the reference CSVs)."""
    src = dest / "src"
    src.mkdir(parents=True)
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "engine", src / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (src / "data" / "reference").mkdir(parents=True)
    for csv in (ROOT / "data" / "reference").glob("*.csv"):
        shutil.copy2(csv, src / "data" / "reference" / csv.name)
    return src


_BUILT: list[Path] = []  # the session's wheel: the checkout does not change under a test session


def build_wheel(tmp: Path, env: dict[str, str]) -> Path:
    """accelbench-*.whl built from a source copy under `tmp` — once per session; a later call gets a copy of it in
    `tmp`/dist."""
    if _BUILT:
        (tmp / "dist").mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy2(_BUILT[0], tmp / "dist" / _BUILT[0].name))
    src = source_copy(tmp)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(src)],
                          cwd=tmp, env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = (tmp / "dist").glob("accelbench-*-py3-none-any.whl")
    _BUILT.append(wheel)
    return wheel
