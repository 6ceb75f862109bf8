#!/usr/bin/env bash
# Set up and run the whole AccelBench test suite on a fresh Debian/Ubuntu machine with Python 3.11+.
# Installs Debian's chromium (browser tests), a venv with requirements-test.txt, then lint, types, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi

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
exec .venv/bin/python -m pytest -q -p no:cacheprovider --durations=15 "$@"
