"""Issue 43, class C: console text that is no delimited table — aligned columns under a (maybe `#`-commented)
header, `key : value` summary lines among prose, a logger's prefix on every line, a JSON line of scores. Each test
writes a small file of the shape a tool prints and checks, as the corpus check does (`problems`: read_raw →
apply_import → default view), what History shows at first sight."""

from __future__ import annotations

from foreign_corpus import problems

from engine.imports.importer import apply_import, read_raw
from engine.imports.read.console_text import summary_lines
from engine.imports.view.default_view import add_views

HPL = """================================================================================
HPLinpack 2.3  --  High-Performance Linpack benchmark  --   December 2, 2018
================================================================================
T/V    : Wall time / encoded variant.
N      :      29       30
P      :       2        1

================================================================================
T/V                N    NB     P     Q               Time                 Gflops
--------------------------------------------------------------------------------
WR00L2L2          29     1     2     2               3.79             4.6178e-06
HPL_pdgesv() start time Sat May 15 18:05:59 2021

||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)=   1.72533487e-02 ...... PASSED
================================================================================
T/V                N    NB     P     Q               Time                 Gflops
--------------------------------------------------------------------------------
WR00L2L4          30     2     1     4               3.92             4.4728e-06
================================================================================
"""

NCCL = """## NCCL TEST RESULT

```
#  Rank  0 Group  0 Pid   6899 on host-a device  0 [0000:04:00] NVIDIA H100 80GB HBM3
#
#                                                       out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
           8             2     float     sum      -1    135.8    0.00    0.00      0    123.5    0.00    0.00      0
  8589934592    2147483648     float     sum      -1    47533  180.71  338.82      0    47740  179.93  337.35      0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 98.1234
```
"""

EEMBC = """01709.412 ulp-ml: Performance results for window 2:
01709.412 ulp-ml:   # Inferences :         1500
01709.412 ulp-ml:   Runtime      :       12.908 sec.
01709.412 ulp-ml:   Throughput   :      116.207 inf./sec.
01709.412 ulp-ml: Runtime requirements have been met.
01709.424 ulp-ml: Performance results for window 4:
01709.424 ulp-ml:   # Inferences :         1500
01709.424 ulp-ml:   Runtime      :       12.908 sec.
01709.424 ulp-ml:   Throughput   :      116.207 inf./sec.
01709.424 ulp-ml: Median throughput is 116.207 inf./sec.
"""

SQUAD = """{"exact_match": 80.5, "f1": 87.6}
Reading examples...
Writing predictions to: /tmp/cache/predictions.json
Evaluating predictions...
"""

COCO = """loading annotations into memory...
Done (t=0.00s)
 Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = 0.496
 Average Recall     (AR) @[ IoU=0.50:0.95 | area=   all | maxDets=  1 ] = 0.434
mAP=49.593%
found 10 results
"""

VLLM = """DEVICE INFO
-----------
Device (raw):       NVIDIA GeForce RTX 4090
Device (sanitized): NVIDIA_GeForce_RTX_4090
NVIDIA GeForce RTX 4090, 24564 MiB, 590.48.01, 8.9

METADATA
--------
Date:            Tue Feb  3 03:39:14 PM AEST 2026
Model:           openai/gpt-oss-20b
Output Length:   300 (±0.3)
Maximum request concurrency: 10

INFO 02-03 05:39:16 [importing.py:44] Triton is installed but 0 active driver(s) found (expected 1).
WARNING: The NVIDIA Driver was not detected.
   https://docs.nvidia.com/datacenter/cloud-native/ .
============ Serving Benchmark Result ============
Successful requests:                     100
Maximum request concurrency:             10
Benchmark duration (s):                  19.29
Request throughput (req/s):              5.18
Output token throughput (tok/s):         164.77
Peak output token throughput (tok/s):    584.00
Total Token throughput (tok/s):          5432.70
---------------Time to First Token----------------
Mean TTFT (ms):                          113.54
==================================================
"""


def _check(text: str, name: str, **exp) -> list[str]:
    return problems(text.encode(), name, {"numbers": [], **exp})


def test_hpl_blocks_under_repeated_headers_are_one_table():
    numbers = [{"value": 4.6178e-06}, {"value": 4.4728e-06}]
    assert _check(HPL, "hpl.txt", metric="gflop", unit="GFLOP/s", numbers=numbers, typed_device="CPU") == []


def test_nccl_commented_header_with_units_and_groups():
    numbers = [{"value": 338.82}, {"value": 337.35}]  # out-of-place and in-place: one metric, a row each
    exp = {"metric": "bus bandwidth", "unit": "GB/s", "numbers": numbers, "typed_device": "H100"}
    assert _check(NCCL, "nccl.markdown", **exp) == []
    raw = read_raw(NCCL.encode(), "nccl.markdown")
    assert set(raw.frame["variant"]) == {"out-of-place", "in-place"}
    assert "busbw (GB/s)" in raw.frame.columns and "count (elements)" in raw.frame.columns  # the units line
    assert raw.guess.roles["count (elements)"] != "count"  # a count of elements is no count of devices


def test_eembc_log_lines_behind_a_timestamp_prefix():
    numbers = [{"value": 116.207}, {"value": 12.908, "metric": "time"}]
    exp = {"metric": "throughput", "unit": "inferences/s", "numbers": numbers, "typed_device": "NUCLEO-L4R5ZI"}
    assert _check(EEMBC, "results.txt", **exp) == []
    assert len(read_raw(EEMBC.encode(), "results.txt").frame) == 2  # a window that measured the same is still a row


def test_a_json_line_of_scores_among_log_lines():
    numbers = [{"value": 87.6}, {"value": 80.5, "metric": "exact"}]
    assert _check(SQUAD, "accuracy.txt", metric="f1", unit="%", numbers=numbers, typed_device="CPU") == []


def test_a_lone_word_equals_number_among_prose():
    numbers = [{"value": 49.593}]
    assert _check(COCO, "accuracy.txt", metric="map", unit="%", numbers=numbers, typed_device="CPU") == []


def test_summary_block_after_a_banner_of_prose():
    numbers = [{"value": 164.77}, {"value": 5.18, "metric": "req/s"}]
    exp = {"metric": "output token throughput", "unit": "tokens/s", "numbers": numbers, "device": "RTX 4090"}
    assert _check(VLLM, "vllm.txt", **exp) == []
    kept, _ = summary_lines(VLLM.split("\n"))
    assert not [k for k in kept if k.startswith(("INFO", "https", "WARNING"))]  # prose and log lines are no summary
    assert sum(k.startswith("Maximum request concurrency") for k in kept) == 1  # said again: kept once


def _nccl_sweep(sizes: list[int]) -> str:
    head = NCCL.split("           8 ")[0]
    rows = "".join(f"  {s:>10}  {s // 4:>12}     float     sum      -1    {100 + s / 1e6:.1f}    1.00    {1 + s / 1e8:.2f}"
                   f"      0    {99 + s / 1e6:.1f}    1.00    {1 + s / 1e8:.2f}      0\n" for s in sizes)  # fmt: skip
    return head + rows + "```\n"


def test_nccl_sizes_in_bytes_by_the_header_are_a_sweep_each_its_own_bar():
    """nccl-tests prints its sizes as bare bytes (the unit is the header's `(B)`), each size on one line read as an
    out-of-place and an in-place row: the distinct sizes climb by `-f 2`, so the size is what was swept (a setting),
    never a measurement pooled into one median over every size."""
    text = _nccl_sweep([8, 16, 32, 64, 128, 256])
    raw = read_raw(text.encode(), "nccl.markdown")
    assert raw.guess.roles["size (B)"] == "setting", raw.guess.said
    assert any("swept size" in s and "×2" in s for s in raw.guess.said)
    raw.guess.constants["device"] = "16x H100"
    view = add_views(apply_import(raw.frame, raw.guess, "nccl.markdown", None)[0])
    assert view["configuration"].nunique() == 6  # one bar per size, none pooled
