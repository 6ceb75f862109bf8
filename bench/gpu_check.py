"""The GPU check and AccelBench's reference pack, for an NVIDIA GPU with CUDA, JAX and PyTorch (no TensorFlow).

    python bench/gpu_check.py --out DIR [--smoke] [--budget-s 480] [--backends jax,torch] [--only …] [--part K/N]
    bench/gpu_check.sh OUT --plan lent [--smoke]     # issue 44: the one prepared run for a GPU lent ~15 minutes

Each run goes through the engine's own worker process (python -m engine run … --json), so the pack obeys
the same timing rules as every run (warm-up and compile apart, synced windows, medians):
  devices          python -m engine devices
  matmul           8192³ in bfloat16 and float32, on every backend
  conv2d           article 000's conv: 128×256×256×3 images, 256 5×5 filters (bfloat16, float32)
  every zoo model  engine.catalog.catalog's models (CNNs, RNN, GPT/BERT-style transformers) on synthetic data of their native shape, at each model's
                   usual GPU batch (catalog gpu_batch_size), mixed_bfloat16 and float32, on every backend
  peer             bench/gpu_peer.py: plain PyTorch, no AccelBench code; bench/jax_peer.py: plain JAX matmul
                   variants, as XLA chooses and with cuBLAS only (XLA_FLAGS=--xla_gpu_enable_triton_gemm=false)
Results: DIR/gpu_check.csv (python -m engine results export), DIR/gpu_check.log, DIR/peer.jsonl,
DIR/jax_peer.jsonl. Copy the
CSV to data/reference/measured/ (with a one-line `.command` file beside it) and run
`python data/reference/build_reference.py`: its runs become "measured by AccelBench" reference rows.
Runs go in priority order and stop starting new ones once --budget-s is spent, so a time-limited machine
still returns a CSV; `--part K/N` splits the pack over several calls. --smoke uses tiny sizes on the CPU
(the test suite runs it with JAX).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.catalog import catalog  # noqa: E402  (facts only: no framework import)
from engine.catalog.backend_rules import NATIVE_TORCH_MODELS  # noqa: E402

# The pack's training order: the models users ask about most first, so a time-limited machine returns those.
PACK_MODELS = (
    "resnet50",
    "gpt2_small",
    "bert_base",
    "fashion_cnn",
    "reuters_conv1d",
    "inceptionv3",
    "vgg19",
    "bilstm",
    "xception",
    "resnet152v2",
    "flowers_cnn",
    "tiny_cnn",
    "gpt_tiny",
    "bert_tiny",
)
PRECISIONS = ("mixed_bfloat16", "float32")
BIG = {"resnet50", "inceptionv3", "vgg19", "xception", "resnet152v2", "bilstm", "gpt2_small", "bert_base"}


def _train_args(model: str, smoke: bool) -> list[str]:
    """Batch and length of one training run: the model's usual GPU batch; enough steady steps to time."""
    if smoke:
        return ["--batch-size", "4", "--epochs", "2", "--steps-per-epoch", "2"]
    batch = catalog.MODELS[model].gpu_batch_size
    epochs, steps = (2, 8) if model in BIG else (3, 50)
    return ["--batch-size", str(batch), "--epochs", str(epochs), "--steps-per-epoch", str(steps)]


def plan(smoke: bool, backends: list[str], device: str) -> list[tuple[str, list[str]]]:
    """(label, `engine run` arguments) in priority order: both microbenchmarks in both dtypes, then every zoo
    model in mixed bfloat16 and float32, each on every backend. Labels read `matmul bfloat16 jax`,
    `resnet50 mixed_bfloat16 torch`; --only keeps those starting with a given prefix."""
    mm = ["--m", "8192", "--n", "8192", "--k", "8192"] if not smoke else ["--m", "128", "--n", "128", "--k", "128"]
    conv = (
        ["--batch-size", "128", "--height", "256", "--width", "256"]
        if not smoke
        else ["--batch-size", "2", "--height", "16", "--width", "16"]
    )
    conv += ["--channels", "3", "--filters", "256" if not smoke else "8", "--kernel-size", "5"]
    reps = ["--repeats", "10" if not smoke else "2", "--warmup", "2"]
    runs: list[tuple[str, list[str]]] = []
    for bench, shape in (("matmul", mm), ("conv2d", conv)):
        for dt in ("bfloat16", "float32"):
            for b in [b for b in backends if b != "torch-eager"]:  # a micro op has nothing to compile
                runs.append((f"{bench} {dt} {b}", ["--bench", bench, *shape, "--dtype", dt, *reps, "--backend", b]))
    for model in PACK_MODELS:
        for prec in PRECISIONS:
            # native PyTorch has its own zoo subset (engine.catalog.backend_rules.NATIVE_TORCH_MODELS)
            for b in [b for b in backends if not b.startswith("torch") or model in NATIVE_TORCH_MODELS]:
                args = ["--model", model, "--dataset", "synthetic", *_train_args(model, smoke), "--precision", prec]
                runs.append((f"{model} {prec} {b}", [*args, *_backend_args(b)]))
    return [(label, [*args, "--device", device]) for label, args in runs]


LENT_MODELS = ("resnet50", "bert_base", "gpt2_small")


def lent_plan(smoke: bool, device: str, data_dir: Path, cores: int) -> list[tuple[str, list[str]]]:
    """`--plan lent` (issue 44): the one prepared run for a GPU lent for ~15 minutes, in priority order —
    (1) real data: ResNet-50 at the flowers shape (192×192) on JPEGs sampled into `data_dir`, mixed bf16, native
    torch compiled, batch 256, with 1, 4 and all host cores as input workers (the host cap's check);
    (2) ResNet-50, BERT-base and GPT-2 small at float32 and mixed bf16 on native torch, compiled, 3 × 60 steps (a
    ±3 % median over the windows); (3) matmul bf16 on JAX and torch (the peers run after, in the same call).
    --smoke: tiny sizes on the CPU, torch uncompiled, 1 and 2 workers, the flowers runs in float32 (a CPU without
    bf16 units emulates it: ResNet-50 at batch 4 took 15 s a step in bf16, 1.2 s in float32 on a 2-core EPYC)."""
    torch = ["--backend", "torch", *(["--no-compile"] if smoke else [])]
    batch, steps = (
        ("4", ["--epochs", "2", "--steps-per-epoch", "2"])
        if smoke
        else ("256", ["--epochs", "3", "--steps-per-epoch", "40"])
    )
    runs: list[tuple[str, list[str]]] = []
    for workers in sorted({1, 2} if smoke else {1, 4, cores}):
        args = ["--model", "resnet50", "--dataset", "flowers", "--data-dir", str(data_dir), "--batch-size", batch,
                *steps, "--precision", "float32" if smoke else "mixed_bfloat16", "--input-workers", str(workers),
                *torch]  # fmt: skip
        runs.append((f"resnet50 flowers workers={workers} torch", args))
    for model in LENT_MODELS:
        for prec in ("float32", "mixed_bfloat16"):
            train = _train_args(model, smoke) if smoke else _lent_train_args(model)
            runs.append((f"{model} {prec} torch", ["--model", model, "--dataset", "synthetic", *train,
                                                   "--precision", prec, *torch]))  # fmt: skip
    mm = ["--m", "128", "--n", "128", "--k", "128"] if smoke else ["--m", "8192", "--n", "8192", "--k", "8192"]
    for b in ("jax", "torch"):
        runs.append((f"matmul bfloat16 {b}", ["--bench", "matmul", *mm, "--dtype", "bfloat16", "--repeats",
                                             "2" if smoke else "10", "--warmup", "2", "--backend", b]))  # fmt: skip
    return [(label, [*args, "--device", device]) for label, args in runs]


def _lent_train_args(model: str) -> list[str]:
    batch = catalog.MODELS[model].gpu_batch_size
    return ["--batch-size", str(batch), "--epochs", "3", "--steps-per-epoch", "60"]


def sample_flowers(out: Path, smoke: bool, env: dict, log) -> Path:
    """JPEGs at 500×375 (the flowers set's usual size, decoded and resized on the host) as TFRecords in OUT/flowers."""
    data = out / "flowers"
    if not data.exists():
        size, n = ("250x180", "16") if smoke else ("500x375", "2048")
        done = _engine(
            ["data", "sample", "flowers", "--out", str(data), "--examples", n, "--size", size], env, log, 600
        )
        if done.returncode != 0:
            raise SystemExit(f"data sample flowers failed: {done.stderr.strip()[-500:]}")
    return data


def _backend_args(backend: str) -> list[str]:
    """`torch-eager` is native PyTorch without torch.compile, so the pack shows what compiling buys."""
    return ["--backend", "torch", "--no-compile"] if backend == "torch-eager" else ["--backend", backend]


def part(runs: list, spec: str) -> list:
    """The K-th of N near-equal slices of the run list (`--part K/N`, K from 1), for machines lent by the call."""
    k, n = (int(x) for x in spec.split("/"))
    if not 1 <= k <= n:
        raise SystemExit(f"--part {spec}: K must be between 1 and N")
    return runs[(k - 1) * len(runs) // n : k * len(runs) // n]


def _engine(args: list[str], env: dict, log, timeout_s: float) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "engine", *args]
    log.write(f"$ {' '.join(cmd)}\n")
    log.flush()
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout_s)


def _summary(row: dict) -> str:
    def f(key: str, fmt: str) -> str:
        v = row.get(key)
        return format(v, fmt) if isinstance(v, (int, float)) else "-"

    return (
        f"{row.get('status')}: {f('gflops', ',.0f')} GFLOP/s, {f('examples_per_sec', ',.1f')} ex/s "
        f"(step-synced {f('examples_per_sec_step_synced', ',.1f')}, epoch {f('examples_per_sec_epoch', ',.1f')}), "
        f"MFU {f('mfu_pct', '.1f')} %, median {f('step_time_ms_median', '.2f')} ms {row.get('error') or ''}"
    )


def _run_all(runs, env: dict, log, budget_s: float, export=None) -> int:
    """Each run in turn within the budget; `export` (the CSV's writer) after every run, so a cut call still returns
    what ran."""
    t0, failures = time.monotonic(), 0
    for label, args in runs:
        left = budget_s - (time.monotonic() - t0)
        if left < 20:
            print(f"[skip] {label}: the {budget_s:.0f} s budget is spent", flush=True)
            continue
        try:
            done = _engine(["run", *args, "--json", "--timeout-s", f"{max(10, left - 5):.0f}"], env, log, left)
            row = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {"status": "no output"}
            log.write(done.stderr[-4000:] + "\n")
        except subprocess.TimeoutExpired:
            row = {"status": "timeout", "error": "past the check's budget"}
        if row.get("status") != "ok":
            failures += 1
            worker_log = Path(env["ACCELBENCH_DB"]).parent / "runs" / str(row.get("run_id")) / "log.txt"
            if worker_log.exists():
                log.write(f"--- worker log of {label}:\n{worker_log.read_text()[-6000:]}\n")
        print(f"[{time.monotonic() - t0:6.1f} s] {label}: {_summary(row)}", flush=True)
        if export is not None:
            export()
    return failures


def _jax_peer(smoke: bool) -> str:
    """bench/jax_peer.py as XLA chooses (Triton or cuBLAS GEMMs), then with cuBLAS only: JSON lines."""
    lines = []
    for flags in ("", "--xla_gpu_enable_triton_gemm=false"):
        env = {**os.environ, "XLA_FLAGS": f"{os.environ.get('XLA_FLAGS', '')} {flags}".strip()}
        cmd = [sys.executable, str(ROOT / "bench" / "jax_peer.py"), *(["--smoke"] if smoke else [])]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        lines.append(done.stdout)
        print(done.stdout + done.stderr[-2000:], flush=True)
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--smoke", action="store_true", help="tiny sizes; runs on a CPU")
    p.add_argument("--budget-s", type=float, default=480.0)
    p.add_argument(
        "--backends",
        default="jax,keras-torch,torch,torch-eager",
        help="torch = native PyTorch (its zoo subset), compiled; torch-eager = the same without torch.compile",
    )
    p.add_argument("--device", default=None, help="default: gpu, or cpu with --smoke")
    p.add_argument("--no-peer", action="store_true")
    p.add_argument(
        "--only", default="", help="comma-separated label prefixes to keep (e.g. 'matmul float32,fashion_cnn')"
    )
    p.add_argument("--part", default="", help="K/N: run only the K-th of N slices of the plan (after --only)")
    p.add_argument("--list", action="store_true", help="print the plan's labels and exit")
    p.add_argument("--db-dir", default=None, help="where the results DB and per-run folders go (default: --out)")
    p.add_argument("--plan", choices=("pack", "lent"), default="pack",
                   help="pack: the reference pack; lent: the one prepared run for a lent GPU (issue 44)")  # fmt: skip
    a = p.parse_args(argv)
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    db_dir = Path(a.db_dir).resolve() if a.db_dir else out
    db_dir.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "ACCELBENCH_DB": str(db_dir / "gpu_check.db"), "PYTHONUNBUFFERED": "1"}
    device = a.device or ("cpu" if a.smoke else "gpu")
    if a.plan == "lent":
        with (out / "gpu_check.log").open("a") as log:
            data = sample_flowers(out, a.smoke, env, log)
        runs = lent_plan(a.smoke, device, data, os.cpu_count() or 1)
    else:
        runs = plan(a.smoke, a.backends.split(","), device)
    if a.only:
        runs = [r for r in runs if any(r[0].startswith(k.strip()) for k in a.only.split(","))]
    if a.part:
        runs = part(runs, a.part)
    if a.list:
        print("\n".join(label for label, _ in runs))
        return 0
    with (out / "gpu_check.log").open("a") as log:
        print(_engine(["devices"], env, log, 120).stdout, flush=True)
        export = lambda: _engine(["results", "export", "--out", str(out / "gpu_check.csv")], env, log, 120)  # noqa: E731
        failures = _run_all(runs, env, log, a.budget_s, export if a.plan == "lent" else None)
        print(export().stderr.strip(), flush=True)
    if not a.no_peer and "torch" in a.backends:
        peer = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "gpu_peer.py"), *(["--smoke", "--device", "cpu"] if a.smoke else [])],
            capture_output=True,
            text=True,
            timeout=300,
        )
        (out / "peer.jsonl").write_text(peer.stdout)
        print(peer.stdout + peer.stderr[-2000:], flush=True)
    if not a.no_peer and "jax" in a.backends:
        (out / "jax_peer.jsonl").write_text(_jax_peer(a.smoke))
    print(f"gpu check: {failures} run(s) not ok; CSV at {out / 'gpu_check.csv'}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
