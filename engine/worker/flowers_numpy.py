"""The flowers files read without TensorFlow (issue 45): Keras on JAX (and on torch) trains on them through this
NumPy/PIL pipeline, what a JAX user writes where Grain is not installed.

  items     the same files and held-out split as tf.data's and torch's (engine.worker.image_files.examples): JPEGs
            in the ImageFolder layout, or the records of TFRecord files (no TensorFlow); every 10th held out.
  decode    PIL reads each JPEG, converts to RGB and resizes to 192×192 (image_files.decode, as torch's), in a pool of
            `--input-workers` threads (AUTOTUNE: the host's cores) — PIL releases the GIL while it decodes
            and resizes, so the threads decode in parallel without forking a process that holds JAX.
  prefetch  one background thread assembles full batches (float32 in [0, 1], NHWC) from the decoded items,
            keeping the next batch's items in the pool, and holds `--prefetch` batches ready
            (AUTOTUNE: 2, torch's default) in a bounded queue; `--cache` keeps decoded images after the first
            pass. Shuffled each epoch (a seeded permutation), full batches only.

A file PIL cannot decode fails the run with one line naming the file (and the record's byte offset in a
TFRecord file): errors.DataFileError, as on every backend. gs:// paths are read by tf.data only
(engine.worker.flowers_tf).
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from engine.catalog.input_spec import InputSettings
from engine.worker.image_files import decode, training_split
from engine.worker.input_probe import input_cores

AUTO_PREFETCH = 2  # batches held ready under --prefetch auto (torch's prefetch_factor default)
PUT_WAIT_S = 0.1  # how often a full queue's producer checks that the consumer is still there
Batch = tuple[np.ndarray, np.ndarray]
Decoded = tuple[np.ndarray, int]


def _decoder(found: list[tuple], cache: bool) -> Callable[[int], Decoded]:
    """Decode item i; with `cache`, each item exactly once: the first caller decodes, a thread asking for it
    meanwhile (the next epoch's first batch overlaps this one's last) waits for that result."""
    if not cache:
        return lambda i: decode(found[i])
    kept: dict[int, Future] = {}
    lock = threading.Lock()

    def once(i: int) -> Decoded:
        with lock:
            first = i not in kept
            if first:
                kept[i] = Future()
        if not first:
            return kept[i].result()
        try:
            got = decode(found[i])
        except BaseException as exc:
            kept[i].set_exception(exc)
            raise
        kept[i].set_result(got)
        return got

    return once


def _index_batches(n: int, batch: int, shuffle: bool, seed: int) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    while True:
        order = rng.permutation(n) if shuffle else np.arange(n)
        for start in range(0, n - batch + 1, batch):
            yield order[start : start + batch]


def _assemble(futures: list[Future]) -> Batch:
    done = [f.result() for f in futures]
    x = np.stack([image for image, _ in done]).astype(np.float32) / np.float32(255.0)
    return x, np.array([label for _, label in done], dtype=np.int32)


def _fill(one, plan: Iterator[np.ndarray], pool: ThreadPoolExecutor, ready: queue.Queue, stop: threading.Event):
    """The prefetch thread: the current and the next batch's items in the pool, full batches into `ready`; an
    error goes into `ready` too, for the consumer to raise."""
    pending: deque[list[Future]] = deque()
    try:
        while not stop.is_set():
            while len(pending) < 2:
                pending.append([pool.submit(one, int(i)) for i in next(plan)])
            out: Batch | BaseException = _assemble(pending.popleft())
            while not stop.is_set():
                try:
                    ready.put(out, timeout=PUT_WAIT_S)
                    break
                except queue.Full:
                    continue
    except BaseException as exc:  # noqa: BLE001 — handed to the consumer, which raises it in the run
        ready.put(exc)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def batches(found: list[tuple], batch: int, settings: InputSettings, shuffle: bool, seed: int):
    """Endless full batches of `found` through the worker threads and the prefetch queue (see module doc)."""
    pool = ThreadPoolExecutor(settings.workers or input_cores(), thread_name_prefix="flowers-decode")
    ready: queue.Queue = queue.Queue(maxsize=settings.prefetch or AUTO_PREFETCH)
    stop = threading.Event()
    plan = _index_batches(len(found), batch, shuffle, seed)
    args = (_decoder(found, settings.cache), plan, pool, ready, stop)
    threading.Thread(target=_fill, args=args, name="flowers-prefetch", daemon=True).start()
    try:
        while True:
            got = ready.get()
            if isinstance(got, BaseException):
                raise got
            yield got
    finally:  # the consumer is gone (closed or collected): the producer stops and the pool drops queued items
        stop.set()


def flowers(
    data_dir: str, batch: int, validation: bool, seed: int, settings: InputSettings
) -> tuple[Iterator[Batch], Iterator[Batch] | None, str, int]:
    """(train, validation or None, source text, training examples), as engine.worker.flowers_tf.flowers."""
    images, train_items, held_out = training_split(data_dir, batch, validation, settings.cache)
    train = batches(train_items, batch, settings, True, seed)
    val = batches(held_out, batch, settings, False, seed) if held_out else None
    prefetch = settings.prefetch or f"AUTOTUNE ({AUTO_PREFETCH})"
    source = (
        f"flowers: {images.describe(data_dir)}, {len(train_items)} training examples; NumPy/PIL pipeline "
        f"(no TensorFlow), input workers {settings.workers or f'AUTOTUNE ({input_cores()} threads)'}, "
        f"prefetch {prefetch}, cache {'on' if settings.cache else 'off'}"
    )
    return train, val, source, len(train_items)
