#!/usr/bin/env bash
# The GPU check in one command, for a machine with an NVIDIA GPU, CUDA, JAX and PyTorch but no TensorFlow
# and no network: installs the carried wheels (Keras and its small pure-Python needs) from .whl/ into
# /tmp/site, then runs bench/gpu_check.py. Usage: bench/gpu_check.sh OUT_DIR [gpu_check.py options]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: bench/gpu_check.sh OUT_DIR [options]}"; shift
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH="/tmp/site:$PWD${PYTHONPATH:+:$PYTHONPATH}"
fi
export PYTHONUNBUFFERED=1
mkdir -p "$out"
KERAS_BACKEND=jax python3 -c "import jax, torch, keras; print('jax', jax.__version__, jax.devices(), '| torch', torch.__version__, torch.cuda.is_available(), '| keras', keras.__version__)"
python3 bench/gpu_check.py --out "$out" "$@" 2>&1 | tee "$out/console.log"
