#!/usr/bin/env bash
# Set up and run the whole AccelBench test suite on a fresh Debian/Ubuntu machine with Python 3.11+.
# Installs Debian's chromium (browser tests), a venv with requirements-test.txt, then lint, types, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's chromium (browser tests) and postgresql (the store tests run on SQLite and on a throwaway
# PostgreSQL server that tests/pg_server.py starts with initdb/pg_ctl; no system service is used).
HAVE_PG=$(ls /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | head -1 || true)
if { ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; } || [ -z "$HAVE_PG" ] || ! command -v g++ >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core postgresql gcc g++ >/dev/null  # gcc/g++: torch.compile on the CPU
fi
export ACCELBENCH_REQUIRE_POSTGRES=1  # a missing PostgreSQL fails the suite rather than skipping its half

PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-test.txt

echo "== versions: $(.venv/bin/python --version), $(chromium --version 2>/dev/null || chromium-browser --version), playwright $(.venv/bin/python -c 'import playwright, importlib.metadata as m; print(m.version("playwright"))')"
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy (engine/ and ui/, settings in pyproject.toml)"
.venv/bin/mypy
echo "== pytest"
export TF_CPP_MIN_LOG_LEVEL=3
# two workers (pytest-xdist; PYTEST_WORKERS=0 runs in one process): a file's tests stay on one worker, the Ray
# files on one between them (tests/conftest.py's scheduler); units handed out in collection order, heavy folders
# first (--no-loadscope-reorder: xdist would otherwise start with the files of most tests, the quick ones)
exec .venv/bin/python -m pytest -q -p no:cacheprovider --durations=15 -n "${PYTEST_WORKERS:-2}" --dist loadgroup \
  --no-loadscope-reorder "$@"
