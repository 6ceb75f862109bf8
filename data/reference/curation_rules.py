"""The rules build_reference.py applies to the shared research CSV: free text → normalised keys.

Each function takes the shared file's text for one field and returns the curated fields. Rules are
ordered lists of regular expressions (first match wins); the few rows no rule can read are fixed in
ROW_OVERRIDES, and the seed-article figures missing from the shared file are in seed_additions.py.
"""

from __future__ import annotations

import re

from seed_additions import ADDED_ROWS, ROW_OVERRIDES  # noqa: F401  (re-exported for the builder)

from engine.reference.units import HARDWARE, METRICS

# (pattern on the hardware label, hardware_key, baseline_key for "X vs Y" rows)
_HARDWARE_RULES: tuple[tuple[str, str, str], ...] = (
    (r"'TPU' runtime \(code ran on host CPU\)", "colab_tpu_runtime_host_cpu", ""),
    (r"TPU v1 \(hypothetical with GDDR5\) vs NVIDIA K80", "tpu_v1", "k80"),
    (r"TPU v1 \(hypothetical with GDDR5\) vs Intel Haswell", "tpu_v1", "cpu"),
    (r"TPU v1 vs Intel Haswell CPU / NVIDIA K80", "tpu_v1", "cpu_or_k80"),
    (r"TPU v1\b", "tpu_v1", ""),
    (r"TPU v4i", "tpu_v4i", ""),
    (r"TPU v4 vs TPU v3", "tpu_v4", "tpu_v3"),
    (r"TPU v4 vs NVIDIA A100", "tpu_v4", "a100"),
    (r"TPU v5e", "tpu_v5e", ""),
    (r"TPU v5p", "tpu_v5p", ""),
    (r"TPU v4", "tpu_v4", ""),
    (r"TPU v3-8|TPUv3, 4 chips", "tpu_v3_8", ""),
    (r"TPU v3", "tpu_v3", ""),
    (r"Cloud TPU \(4x TPUv2( chips)?\) vs NVIDIA (Tesla )?P100", "tpu_v2_8", "p100"),
    (r"Cloud TPU \(4x TPUv2( chips)?\) vs NVIDIA (Tesla )?V100", "tpu_v2_8", "v100"),
    (r"Cloud TPU v2-8 via Colab vs NVIDIA K80", "tpu_v2_8", "k80"),
    (r"full Cloud TPU v2 Pod vs single NVIDIA V100", "tpu_v2", "v100"),
    (r"v2-8|4x TPUv2|4 TPUv2|one 4-chip board|Cloud TPU \(4x", "tpu_v2_8", ""),
    (r"TPU ?v2", "tpu_v2", ""),
    (r"Cloud TPU Pod \(version/size not stated", "tpu_unknown", ""),
    (r"K80", "k80", ""),
    (r"P100", "p100", ""),
    (r"V100", "v100", ""),
    (r"\bT4\b", "t4", ""),
    (r"A100", "a100", ""),
    (r"H100[- ](?:80GB )?PCIe", "h100_pcie", ""),  # the PCIe card: fewer SMs, 350 W; its own hardware key
    (r"H100", "h100", ""),
    (r"DGX-2", "v100", ""),  # DGX-2/2H systems are 16 V100s
    (r"CPU|Xeon|Core i\d", "cpu", ""),
)


def classify_hardware(label: str) -> tuple[str, str, str]:
    """(hardware_key, device_type, baseline_key) for a published hardware description."""
    for pattern, key, baseline in _HARDWARE_RULES:
        if re.search(pattern, label):
            return key, HARDWARE[key].device_type, baseline
    raise ValueError(f"no hardware rule matches {label!r}; add one to curation_rules._HARDWARE_RULES")


def _default_unit(key: str) -> str:
    if key == "k80":
        return "die"  # Colab, GCE and AWS expose one GK210 die as "a GPU"
    if key.endswith("_8"):
        return "board"
    dev = HARDWARE[key].device_type
    return {"gpu": "gpu", "cpu": "host"}.get(dev, "chip")


def count_fields(text: str, key: str, label: str) -> tuple[str, str]:
    """(hardware_count, count_unit) from the shared `hardware_count` text and the hardware label."""
    t = text.strip()
    if key.endswith("_8") and t in ("4 chips", "1 board", "1", "1 instance", "1 vs 1") or "Cloud TPU" in t:
        return "1", "board"  # a Cloud TPU v2-8/v3-8 is one board of 4 chips / 8 cores
    if t.startswith("1 board"):
        return "1", "board"
    if m := re.fullmatch(r"(\d+) chips?(?: \(2 cores\))?", t):
        return m.group(1), "chip"
    if t == "per chip":
        return "1", "chip"
    if m := re.fullmatch(r"(\d+) nodes?(?: \(.*\))?", t):
        return m.group(1), "node"
    if t == "1 socket":
        return "1", "socket"
    if t in ("1 instance", "1 server"):
        m = re.search(r"(\d+)x ", label)  # "AWS p3.16xlarge (8x V100)" → 8 GPUs per instance
        return (m.group(1) if m else "1"), _default_unit(key)
    if t in ("pod", "pod vs 1"):
        return "1", "pod"
    if t == "similar-sized systems":
        return "", "system"
    if t == "half pod":
        return "128", "chip"  # 32 boards × 4 chips; inferred (see ROW_OVERRIDES doubt)
    if t == "1 vs 1":
        return "1", _default_unit(key)
    if m := re.match(r"(\d+)(?: \(.*\))?$", t):
        return m.group(1), _default_unit(key)
    raise ValueError(f"cannot read hardware_count {text!r}")


def display_name(row: dict[str, str]) -> str:
    """A short, chart-friendly hardware name: 'TPU v2-8', '8× V100 (AWS p3.16xlarge)', 'K80 (1 die)'."""
    key, label = row["hardware_key"], row["hardware_label"]
    count, unit = row["hardware_count"], row["count_unit"]
    short = HARDWARE[key].short
    n = int(count) if count else 0
    if key == "cpu":
        cpu = re.search(r"(Xeon(?: Platinum)? [\w+-]+\d[\w+-]*(?: v\d)?|Core i\d-\w+|Haswell)", label)
        name = "CPU (Colab)" if "Colab" in label else (f"CPU {cpu.group(1)}" if cpu else "CPU")
        if unit == "node" and n > 1:
            name = f"{n} nodes × {name}"
        elif unit == "node":
            sockets = re.search(r"(\d+)x Intel", label)
            name = f"{name} ×{sockets.group(1)} sockets" if sockets else name
    elif key == "k80":
        name = {"board": "K80 (board, 2 dies)"}.get(unit, "K80 (1 die)" if n <= 1 else f"{n}× K80 die")
    elif HARDWARE[key].device_type == "gpu":
        variant = []
        if "presumed" not in label:
            variant += re.findall(r"\b(\d+ ?GB)\b", label)[:1]
            forms = [m.replace("PCIE", "PCIe") for m in re.findall(r"\b(PCIe|PCIE|SXM\d?)\b", label)][:1]
            variant += [f for f in forms if f not in short]  # "H100 PCIe" already says PCIe
        name = " ".join([short, *variant])
        name = f"{n}× {name}" if n > 1 else name
    elif unit == "pod":
        name = f"{short} Pod" if key != "tpu_unknown" else "TPU Pod (version not stated)"
    elif unit == "chip" and n > 1:
        name = f"{short} ×{n} chips"
    elif unit == "chip" and not key.startswith("tpu_v1"):
        name = f"{short} (1 chip)"
    else:
        name = short
    inst = re.search(r"\b(p\d\w*\.\d*xlarge|ND40s_v2|gn6e[\w.-]*|c5\.18xlarge|n1-standard-\d+)", label)
    if inst and key != "cpu":
        name = f"{name} ({inst.group(1)})"
    if row["baseline_key"]:
        base = {"cpu_or_k80": "CPU/K80"}.get(row["baseline_key"]) or HARDWARE[row["baseline_key"]].short
        name = f"{name} vs {base}"
    return name


_MODEL_RULES = (
    (r"conv2d micro-benchmark", "conv2d"),
    (r"matmul", "matmul"),
    (r"ResNet-50", "resnet50"),
    (r"ResNet152V2", "resnet152v2"),
    (r"ResNet-152", "resnet152"),
    (r"InceptionV3", "inceptionv3"),
    (r"VGG19", "vgg19"),
    (r"Xception", "xception"),
    (r"Custom CNN", "flowers_cnn"),
    (r"5-layer CNN", "fashion_cnn"),
    (r"BiLSTM", "bilstm"),
    (r"MLPerf Training 1.0", "mlperf_training_mix"),
    (r"MLPerf/production", "mlperf_production_mix"),
    (r"production", "production_inference_mix"),
)


def model_key(label: str) -> str:
    for pattern, key in _MODEL_RULES:
        if re.search(pattern, label):
            return key
    return ""


def framework_fields(text: str) -> tuple[str, str]:
    """(framework key, version) — 'TensorFlow 1.7.0 (tf_cnn_benchmarks)…' → ('tensorflow', '1.7.0')."""
    low = text.lower()
    if not text:
        return "", ""
    if "mxnet" in low:
        fw = "mxnet"
    elif "tensorflow" in low or "tensorpack" in low:
        fw = "tensorflow"  # includes tensorpack, AIACC and a fast.ai-style recipe, all on TensorFlow
    elif "pytorch" in low or "fast.ai" in low:
        fw = "pytorch"
    elif "caffe" in low:
        fw = "caffe"
    else:
        fw = ""
    versions = re.findall(r"(?:TensorFlow|TF|MXNet|Caffe) ~?(\d+\.\d+(?:\.\d+)?(?:-?rc\d)?[a-z]?)", text)
    versions = versions or re.findall(r"TensorFlow (\d+\.x)", text)
    versions += re.findall(r"\d+\.\d+(?:\.\d+)? ?(?:\(\w+\) )?/ ?(\d+\.\d+)", text)  # "1.6 (TPU) / 1.5 (GPU)"
    ngc = re.search(r"NGC (?:\w+:)?(\d\d\.\d\d)", text)
    if ngc:
        versions.append(f"NGC {ngc.group(1)}")
    seen = list(dict.fromkeys(versions))
    return fw, "/".join(seen)


_PEAK_METRICS = ("peak_tflops", "peak_tflops_fp64", "peak_tops", "perf_per_watt_ratio", "power_ratio")


def precision_fields(text: str, framework: str, metric: str, key: str) -> tuple[str, str]:
    """(precision, xla) — precision as a training policy for runs, an arithmetic type for peaks."""
    t = text.lower()
    xla = "True" if ("xla" in t or "xla" in framework.lower()) else ""
    peak = metric in _PEAK_METRICS
    if not t or metric in ("memory_gb", "mem_bw_gbs", "tdp_w", "power_measured_w", "price_usd_per_h"):
        return "", xla
    if "int8" in t and "bf16" not in t:
        return "int8", xla
    if "fp8" in t:
        return "fp8", xla
    if "fp64" in t:
        return "float64", xla
    if "'fp32' column" in t:
        return ("tf32" if HARDWARE[key].silicon in ("ga100", "gh100") else "float32"), xla
    if "bf16/fp16" in t:
        return "bf16_fp16", xla
    if "tf32" in t:
        return "tf32", xla
    if "unspecified" in t or "see notes" in t:
        return "unknown", xla
    if "bf16" in t:  # "bf16 mixed (implementation default…)": the default is the best we know; label keeps the caveat
        return ("bfloat16" if peak else "mixed_bfloat16"), xla
    if "fp16" in t:
        return ("float16" if peak or "tensor" in t else "mixed_float16"), xla
    if "fp32" in t:
        return "float32", xla
    if "not stated" in t or t == "mixed":
        return "unknown", xla
    raise ValueError(f"cannot read precision {text!r}")


def unit_fields(text: str, notes: str, metric: str) -> tuple[str, str, str]:
    """(canonical unit, value_kind, note about the published unit when it carried more than a unit)."""
    info = METRICS[metric]
    unit = text if text in (info.unit, *info.alt_units) else info.unit
    kind = "exact"
    low, nlow = text.lower(), notes.lower()
    if "lower bound" in low or "lower bound" in nlow:
        kind = "lower_bound"
    elif "upper bound" in low or "upper end" in nlow:
        kind = "upper_bound"
    elif "approximate" in nlow or "around " in nlow:
        kind = "approx"
    elif "derived here" in nlow or "computed here" in nlow:
        kind = "derived"
    note = f"published unit: {text}" if text != unit else ""
    return unit, kind, note


def batch_fields(text: str, count: str, device_type: str, source_id: str) -> tuple[str, str]:
    """(batch_size, batch_scope). The number as published; the scope says whether it is global."""
    t = text.strip()
    m = re.search(r"(\d+)", t)
    if not m:
        return "", ("unknown" if t else "")
    n = m.group(1)
    if re.search(r"global|\(\d+/GPU\)", t):
        return n, "global"
    if re.search(r"per GPU|/GPU", t):
        return n, "per_replica"
    if "scope unclear" in t or "TPU 1024; GPU 128" in t:
        return n, "unknown" if "scope unclear" in t else "global"
    if device_type == "tpu" and source_id.startswith("SEED"):
        return n, "unknown"  # a TPU board has 8 replicas; the seed does not say which batch it means
    if count in ("1", "") and device_type != "tpu":
        return n, "global"
    return n, "global"  # MLPerf logs, DAWNBench and Lambda list the global batch


def data_fields(label: str, source_id: str, model: str = "") -> tuple[str, str, str]:
    """(dataset key, data_kind, target) — target is the quality bar of a time-to-accuracy figure."""
    low = label.lower()
    target = ""
    if m := re.search(r"to (\d+(?:\.\d+)?% top-[15])", label):
        target = m.group(1)
    if not label:
        return "", "", ""
    if "flowers" in low:
        return "flowers", "real", target
    if "fashion" in low:
        return "fashion_mnist", "real", target
    if "synthetic random" in low:
        return "synthetic", "synthetic", target
    imagenet_model = model in ("resnet50", "resnet152", "inceptionv3")
    if "imagenet" in low or ("synthetic" in low and imagenet_model):
        kind = "synthetic" if "synthetic" in low else "real"
        if source_id == "SEED-RISEML":
            kind = "synthetic"  # the seed: Google's fake ImageNet data for all of RiseML's CNN runs
        return "imagenet", kind, target
    if "text" in low:
        return "text_unnamed", "unknown", target
    if "production" in low:
        return "production", "real", target
    return low.replace(" ", "_"), "unknown", target


def doubt_fields(row: dict[str, str]) -> tuple[bool, str]:
    """(doubtful, reason) from the notes' own markings: SECONDARY, approximate, DOUBT, not verified…"""
    notes, reasons = row["notes"], []
    low = notes.lower()
    if row["source_id"].startswith("SEC-") or "secondary" in low:
        reasons.append("second-hand report (SECONDARY), not the primary source")
    if row["value_kind"] == "approx" or "approximat" in low or "around " in low:
        reasons.append("approximate value")
    if "DOUBT" in notes:
        reasons.append("source notes: " + notes[notes.index("DOUBT") :].split(". ")[0].replace("DOUBT: ", "").strip())
    if "could NOT be verified" in notes:
        reasons.append("the attributed figure could not be verified")
    if "hypothetical" in low:
        reasons.append("hypothetical design, not measured hardware")
    if "sparsity" in row["precision_label"].lower():
        reasons.append("quoted with 2:4 sparsity; the dense peak is half")
    return bool(reasons), "; ".join(dict.fromkeys(reasons))
