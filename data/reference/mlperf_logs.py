"""Steady-state rates from MLPerf Training result logs that time *blocks* instead of epochs (issue 36 item 5).

Google's TPU submissions never log `epoch_start`/`epoch_stop` or a `tracked_stats` throughput: they time blocks of
training between evaluations (`block_start` → `block_stop`). What a block counts depends on the benchmark, and each
unit below is checked against the log's own totals (train_samples = global batch × training steps):
- ResNet-50: `epoch_count` epochs of `train_samples` (1,281,167) images each;
- BERT: `epoch_count` training steps of `global_batch_size` sequences (v0.7–v2.0 TPU logs: 1953 × 256,
  56 × 3072, 33 × 6912; train_samples is batch × opt_learning_rate_training_steps in each);
- GPT-3: `epoch_count` tokens (50,331,648 = 16 steps × 1536 sequences × 2048 tokens);
- Stable Diffusion: the `samples_count` the block ended at, less the one its block_start stated (Google's logs
  state the end count at the block_stop; NVIDIA's v5.0 NeMo logs at the eval_start that follows, see below);
- Llama-2-70B LoRA (v4.0+ GPU logs, AMD's and NVIDIA's alike): `samples_count` too, sequences of 8,192 tokens. AMD-
  derived loggers state the block's end count at its block_stop (`samples_count` 1536 = `curr_global_step` 192 ×
  `self.gbs` 8); NVIDIA's mlperf_common logger repeats the start's count at the block_stop and states the end count
  at the eval_start that follows. So a block's end count is the first count after its block_start, at its
  block_stop or later, that exceeds the start's (each checked against the log's own tracked_stats throughput, which
  both loggers state per block in sequences/s: 1536 / 295.85 s = 5.19 on NVIDIA's 8× B200, 384 / 189.23 s = 2.03
  on AMD's 8× MI300X). These blocks stop before the evaluation, so they time training alone.
A block's time includes the evaluation run at its end where the submission evaluates inside the block, so the rate
is a slight underestimate of pure training throughput. The first block carries compilation and warm-up and is
dropped; the rate is the median over the rest. Version 0.6 logs use the older `:::MLL <seconds> key: {json}` lines.
"""

from __future__ import annotations

import json
import statistics
from typing import Any

Event = dict[str, Any]


def mllog_events(log_text: str) -> list[Event]:
    """Every MLPerf log event of a result file, in order, as {"key", "time_ms", "value", "metadata"}."""
    events: list[Event] = []
    for line in log_text.splitlines():
        if ":::MLLOG" in line:
            events.append(json.loads(line.split(":::MLLOG", 1)[1]))
        elif line.startswith(":::MLL "):  # v0.6: ":::MLL 1558420845.822 block_start: {...}"
            stamp, rest = line[len(":::MLL ") :].split(" ", 1)
            key, body = rest.split(": ", 1)
            events.append({"key": key, "time_ms": float(stamp) * 1000.0, **json.loads(body)})
    return events


def _first(events: list[Event], *keys: str) -> Any:
    return next(e["value"] for e in events if e["key"] in keys)


def _block_samples(events: list[Event], benchmark: str) -> float | None:
    """Examples (images, sequences, tokens) one block of `epoch_count` covers; None where blocks state samples."""
    if benchmark == "resnet":
        return float(_first(events, "train_samples", "num_train_examples"))
    if benchmark == "bert":
        return float(_first(events, "global_batch_size"))
    if benchmark == "gpt3":
        return 1.0
    if benchmark in ("stable_diffusion", "llama2_70b_lora"):
        return None
    raise ValueError(f"no block unit known for benchmark {benchmark!r}")


def _end_count(events: list[Event], stop_at: int, start_count: float) -> float:
    """The samples_count a block ended at: its block_stop's where that exceeds the start's, else the first later
    one that does (NVIDIA's logger repeats the start's count at block_stop and states the end at eval_start)."""
    for e in events[stop_at:]:
        count = (e.get("metadata") or {}).get("samples_count")
        if count is not None and float(count) > start_count:
            return float(count)
    return start_count


def block_rates(log_text: str, benchmark: str) -> list[float]:
    """Examples/s of each timed block of one result log, in order (a block_stop pairs with its own block_start:
    the same first_epoch_num, or the latest open one where the log gives none)."""
    events = mllog_events(log_text)
    per_epoch = _block_samples(events, benchmark)
    open_blocks: dict[Any, Event] = {}
    rates = []
    for i, e in enumerate(events):
        meta = e.get("metadata") or {}
        mark = meta.get("first_epoch_num", "open")
        if e["key"] == "block_start":
            open_blocks[mark] = e
        elif e["key"] == "block_stop" and mark in open_blocks:
            start = open_blocks.pop(mark)
            seconds = (e["time_ms"] - start["time_ms"]) / 1000.0
            if per_epoch is None:
                begun = float(start["metadata"]["samples_count"])
                examples = _end_count(events, i, begun) - begun
            else:
                examples = float(start["metadata"]["epoch_count"]) * per_epoch
            if seconds > 0 and examples > 0:
                rates.append(examples / seconds)
    return rates


def whole_run_rate(events: list[Event], block_rate: float) -> float:
    """The rate of a log whose ONE block spans the whole run (NVIDIA's v0.7 BERT logs: one block_start → block_stop
    around every step and the one evaluation at its end, `epoch_count` 1): the run's `train_samples`, stated at its
    end, over the block's time. Only where train_samples exceeds what the block's own count gives (block_rate ×
    its time), i.e. where it counts the run rather than one epoch; else no rate can be told."""
    start = next(e for e in events if e["key"] == "block_start")
    stop = next(e for e in reversed(events) if e["key"] == "block_stop")
    seconds = (stop["time_ms"] - start["time_ms"]) / 1000.0
    samples = float(_first(events, "train_samples"))
    if seconds <= 0 or samples <= block_rate * seconds * 1.01:
        raise ValueError("one timed block whose examples the log does not count: no steady-state rate")
    return samples / seconds


def mlperf_block_rate(log_text: str, benchmark: str) -> tuple[float, int, int]:
    """(examples/s, global batch, blocks timed) of one block-timed result log: median over the blocks after the
    first (the first carries compilation and warm-up); a log of one block spanning the run gives its whole-run rate
    (whole_run_rate: warm-up and the final evaluation inside it, a slight underestimate, as its rows say)."""
    rates = block_rates(log_text, benchmark)
    events = mllog_events(log_text)
    batch = int(_first(events, "global_batch_size"))
    if len(rates) == 1:
        return whole_run_rate(events, rates[0]), batch, 1
    if len(rates) < 2:
        raise ValueError("fewer than two timed blocks: no steady-state rate")
    return statistics.median(rates[1:]), batch, len(rates)
