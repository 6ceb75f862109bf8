"""The one hardware table: every device AccelBench knows, with its name aliases, how it counts its
units, its datasheet peak per precision and TDP. Prices live beside it in engine.catalog.prices (one per device).

Read by engine.runs.hardware (a run's % of peak), engine.reference (reference keys, unit
conversions, peak rows on Compare) and the CLI. Pure Python; no pandas, no TensorFlow.

Peaks are dense TFLOP/s per *peak unit* (one GPU die or one TPU chip): a v2-8 board is 4 chips,
a K80 board 2 dies. Sources: vendor datasheets (see data/reference for the sourced rows).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Device:
    """One hardware key.

    Attributes:
      key: the normalised key (the reference CSV's `hardware_key`).
      device_type: cpu, gpu or tpu.
      short: display name.
      aliases: lower-case substrings of the name TF/NVML report ("tesla t4" → t4); first table match wins.
      unit_sizes: base units (TPU cores, GPU dies) in each counting unit (a v2-8 board: 8 cores).
      peak_unit: the unit the peaks are quoted per ("gpu", "die", "chip").
      peak_tflops: dense peak per precision ("float32", "tf32", "float16", "bfloat16", "int8").
      tdp_w: board power per peak unit, when published.
      mem_gb: device memory per peak unit (GB as the vendor states it).
      mem_bw_gbs: memory bandwidth per peak unit in GB/s — what bounds a memory-bound layer.
      silicon: devices that share one compute die and clocks share a silicon name (H100, H200 and GH200 are
        all "gh100"): an efficiency measured on one carries to the others better than across generations.
      source: the datasheet the figures above were read from.
    """

    key: str
    device_type: str
    short: str
    unit_sizes: Mapping[str, float]
    aliases: tuple[str, ...] = ()
    peak_unit: str = "gpu"
    peak_tflops: dict[str, float] = field(default_factory=dict)
    tdp_w: float | None = None
    mem_gb: float | None = None
    mem_bw_gbs: float | None = None
    silicon: str = ""
    source: str = ""


_TPU_V2 = {"core": 1, "chip": 2, "board": 8, "pod": 512}  # a v2 Pod: 256 chips
_TPU_V3 = {"core": 1, "chip": 2, "board": 8, "pod": 2048}  # a v3 Pod: 1024 chips
_TPU_V4 = {"core": 1, "chip": 2, "board": 8, "pod": 8192}  # a v4 Pod: 4096 chips (megacore: 2 cores/chip)
_ONE_GPU = {"gpu": 1, "die": 1, "chip": 1, "board": 1}
_F16 = ("float16", "bfloat16")
_NV = "NVIDIA datasheet: "
_TPU_DOC = "Google Cloud TPU docs, system architecture: "


def _p(fp32: float | None = None, half: float | None = None, tf32: float | None = None, *, halves=_F16) -> dict:
    out = {"float32": fp32} if fp32 else {}
    out |= {h: half for h in halves} if half else {}
    return out | ({"tf32": tf32} if tf32 else {})


# Peaks are DENSE: where a datasheet quotes "with sparsity" the figure here is half of it.
DEVICES: tuple[Device, ...] = (
    Device("cpu", "cpu", "CPU", {"host": 1}, peak_unit="host"),
    Device("colab_tpu_runtime_host_cpu", "cpu", "Colab 'TPU' runtime (host CPU)", {"host": 1}, peak_unit="host"),
    # Blackwell Ultra (issue 42 item 4). GB300 before B300: "b300" is inside "gb300". Per GPU from the GB300 NVL72
    # rack table (72 GPUs): FP16/BF16 360 PF and TF32 180 PF with sparsity (halved here: 2,500 and 1,250 dense),
    # up to 20 TB HBM3e at 576 TB/s (279 GB and 8 TB/s per GPU). NVIDIA states no per-GPU FP32 or TDP for it:
    # FP32 80 TFLOP/s is Verda's per-GPU table (secondary); TDP left None (secondary sources quote 1.4 kW).
    # FP8 (5 PF dense) is not a key of this table.
    Device(
        "gb300", "gpu", "GB300", _ONE_GPU, ("gb300",), peak_tflops=_p(80.0, 2500.0, 1250.0), mem_gb=279,
        mem_bw_gbs=8000, silicon="blackwell_ultra",
        source=_NV + "GB300 NVL72 (nvidia.com/en-us/data-center/gb300-nvl72), rack ÷ 72 GPUs; FP32 from Verda's "
        "'GB300 NVL72: GPU Architecture & Performance' per-GPU table (secondary)",
    ),
    # HGX B300 (8 GPUs): FP16/BF16 36 PF, TF32 18 PF with sparsity, FP32 600 TF (÷ 8, halved: 2,250 / 1,125 / 75
    # dense per GPU; the B200's BF16). DGX B300: 2.3 TB HBM3e at 64 TB/s (288 GB, 8 TB/s per GPU). NVIDIA states no
    # per-GPU TDP for the HGX part (secondary sources: 1.1 to 1.4 kW), so None. NVML: "NVIDIA B300 SXM6 AC".
    Device(
        "b300", "gpu", "B300", _ONE_GPU, ("b300",), peak_tflops=_p(75.0, 2250.0, 1125.0), mem_gb=288,
        mem_bw_gbs=8000, silicon="blackwell_ultra",
        source=_NV + "HGX B300 (nvidia.com/en-us/data-center/hgx) ÷ 8 GPUs; memory from the DGX B300 datasheet ÷ 8",
    ),
    # HGX B200 at 1,000 W: FP32 75, TF32 2.2 PF and BF16 4.5 PF with sparsity (halved here); 180 GB HBM3e, 7.7 TB/s
    Device(
        "b200", "gpu", "B200", _ONE_GPU, ("b200",), peak_tflops=_p(75.0, 2250.0, 1100.0), tdp_w=1000, mem_gb=180,
        mem_bw_gbs=7700, silicon="gb100", source=_NV + "HGX B200 (nvidia.com/en-us/data-center/hgx), per GPU",
    ),
    # GH200's GPU is the H100's GH100 die with 96 GB HBM3 at 4 TB/s (144 GB HBM3e at 4.9 TB/s in the later part);
    # listed before the H200 because "h200" is inside "gh200"
    Device(
        "gh200", "gpu", "GH200", _ONE_GPU, ("gh200",), peak_tflops=_p(67.0, 989.0, 494.7), tdp_w=1000, mem_gb=96,
        mem_bw_gbs=4000, silicon="gh100",
        source=_NV + "GH200 Grace Hopper Superchip (96 GB HBM3 version); module power 450–1000 W incl. the CPU",
    ),  # fmt: skip
    # H200 SXM: the H100's GH100 silicon and clocks, so the H100 SXM's dense peaks; 141 GB HBM3e at 4.8 TB/s
    Device(
        "h200", "gpu", "H200", _ONE_GPU, ("h200",), peak_tflops=_p(67.0, 989.0, 494.7), tdp_w=700, mem_gb=141,
        mem_bw_gbs=4800, silicon="gh100", source=_NV + "H200 Tensor Core GPU, H200 SXM column",
    ),
    # H100 PCIe: fewer SMs and lower clocks than the SXM part; before the H100 because the first alias found wins
    Device(
        "h100_pcie", "gpu", "H100 PCIe", _ONE_GPU, ("h100 pcie", "h100-pcie", "h100 80gb pcie", "h100_pcie"),
        peak_tflops=_p(51.0, 756.0, 378.0), tdp_w=350, mem_gb=80, mem_bw_gbs=2000, silicon="gh100",
        source=_NV + "H100 Tensor Core GPU, H100 PCIe column",
    ),
    Device(
        "h100", "gpu", "H100", _ONE_GPU, ("h100",), peak_tflops=_p(67.0, 989.0, 494.7), tdp_w=700, mem_gb=80,
        mem_bw_gbs=3350, silicon="gh100", source=_NV + "H100 Tensor Core GPU, H100 SXM column",
    ),
    # A100 80GB datasheet: the 40GB part's peaks (SXM 400 W); its own key because it is priced apart. Its aliases
    # come before the A100's because the first alias found in the name wins.
    Device(
        "a100_80gb", "gpu", "A100 80GB", _ONE_GPU, ("a100-sxm4-80gb", "a100 80gb", "a100-80gb", "a100-pcie-80gb"),
        peak_tflops=_p(19.5, 312.0, 156.0), tdp_w=400, mem_gb=80, mem_bw_gbs=2039, silicon="ga100",
        source=_NV + "A100 Tensor Core GPU, A100 80GB SXM column",
    ),
    Device(
        "a100", "gpu", "A100", _ONE_GPU, ("a100",), peak_tflops=_p(19.5, 312.0, 156.0), tdp_w=400, mem_gb=40,
        mem_bw_gbs=1555, silicon="ga100", source=_NV + "A100 Tensor Core GPU, A100 40GB SXM column",
    ),
    # AMD Instinct: matrix peaks (FP32 matrix 163.4; TF32 and BF16 dense, without sparsity)
    Device(
        "mi325x", "gpu", "MI325X", _ONE_GPU, ("mi325x",), peak_tflops=_p(163.4, 1307.4, 653.7), tdp_w=1000,
        mem_gb=256, mem_bw_gbs=6000, silicon="cdna3", source="AMD Instinct MI325X datasheet (amd.com)",
    ),
    # CDNA 4: FP16/BF16 matrix 2.5 PF dense (2,516.6 = 2.4 GHz × 1,024 matrix cores × 1,024 FLOP/clock), FP32
    # 157.3 TFLOP/s, 288 GB HBM3E at 8 TB/s, 1,400 W TBP (MI350X: 2.2 GHz, 2,306.9 / 144.2, 1,000 W). No TF32 key:
    # CDNA 4 has no TF32 matrix type (ROCm's data-type table), so float32 is the FP32 figure. FP8 (5.0 PF) not kept.
    Device(
        "mi355x", "gpu", "MI355X", _ONE_GPU, ("mi355x",), peak_tflops=_p(157.3, 2516.6), tdp_w=1400, mem_gb=288,
        mem_bw_gbs=8000, silicon="cdna4", source="AMD Instinct MI355X datasheet (amd.com); MI350 Series spec table",
    ),
    Device(
        "mi350x", "gpu", "MI350X", _ONE_GPU, ("mi350x",), peak_tflops=_p(144.2, 2306.9), tdp_w=1000, mem_gb=288,
        mem_bw_gbs=8000, silicon="cdna4", source="AMD Instinct MI350X datasheet (amd.com); MI350 Series spec table",
    ),
    Device(
        "mi300x", "gpu", "MI300X", _ONE_GPU, ("mi300x",), peak_tflops=_p(163.4, 1307.4, 653.7), tdp_w=750,
        mem_gb=192, mem_bw_gbs=5300, silicon="cdna3", source="AMD Instinct MI300X datasheet (amd.com)",
    ),
    # CDNA 2, per OAM package (two GCDs, 104 CUs each): FP16/BF16 matrix 362.1, FP32 matrix 90.5 TFLOP/s (no TF32
    # type), 128 GB HBM2e at 3.2 TB/s, 500 W (560 W peak). One "GPU" is the package, as MosaicML's per-GPU figures
    # count it (4 per node); ROCm lists each GCD as a device of its own, so no alias: a local run on one GCD is
    # half this unit (die), not one.
    Device(
        "mi250", "gpu", "MI250", {"die": 1, "gpu": 2, "chip": 2, "board": 2}, peak_tflops=_p(90.5, 362.1),
        tdp_w=500, mem_gb=128, mem_bw_gbs=3200, silicon="cdna2",
        source="AMD Instinct MI250 datasheet (amd.com, OAM module: 208 CUs, peak FP16/BF16 362.1 TFLOPs)",
    ),
    # RTX PRO 6000 Blackwell Server Edition (GB202, 188 SMs): the datasheet gives FP32 120 TFLOP/s, FP4 4 PFLOPS
    # with sparsity, 96 GB GDDR7 at 1,597 GB/s, up to 600 W (configurable). It publishes NO FP16/BF16 or TF32 tensor
    # figure: the 500 / 250 here are DERIVED from its FP4 figure by Blackwell's fixed tensor ratios (dense = sparse
    # ÷ 2, FP16 = FP4 ÷ 4, TF32 = FP16 ÷ 2), not read from a datasheet. Only the Server Edition's name is an alias:
    # the Workstation and Max-Q editions run other clocks, power and memory speed. Its short name is 9
    # characters at most, as every device's: a longer one widens `compare --device all`'s device column and cuts
    # its precision column (engine.cli.compare_table); "RTX 6000" would name another card (the RTX 6000 Ada).
    Device(
        "rtx_pro_6000", "gpu", "PRO 6000", _ONE_GPU, ("rtx pro 6000 blackwell server",),
        peak_tflops=_p(120.0, 500.0, 250.0), tdp_w=600, mem_gb=96, mem_bw_gbs=1597, silicon="gb202",
        source=_NV + "RTX PRO 6000 Blackwell Server Edition (FP32, memory, power); FP16/BF16/TF32 derived from its "
        "FP4 figure (not published)",
    ),
    # before the L4: "l4" is inside "l40s"
    Device(
        "l40s", "gpu", "L40S", _ONE_GPU, ("l40s",), peak_tflops=_p(91.6, 362.05, 183.0), tdp_w=350, mem_gb=48,
        mem_bw_gbs=864, silicon="ad102", source=_NV + "L40S GPU for the data center",
    ),
    Device(
        "l4", "gpu", "L4", _ONE_GPU, ("l4",), peak_tflops=_p(30.3, 121.0, 60.0), tdp_w=72, mem_gb=24, mem_bw_gbs=300,
        silicon="ad104", source=_NV + "L4 Tensor Core GPU",
    ),
    # AWS's A10G: the A10's GA102 with 24 GB GDDR6 at 600 GB/s (AWS G5 page); peaks of the A10 datasheet
    Device(
        "a10g", "gpu", "A10G", _ONE_GPU, ("a10g",), peak_tflops=_p(31.2, 125.0, 62.5), tdp_w=150, mem_gb=24,
        mem_bw_gbs=600, silicon="ga102", source=_NV + "A10 Tensor Core GPU; AWS EC2 G5 instance page",
    ),
    Device(
        "v100", "gpu", "V100", _ONE_GPU, ("v100",), peak_tflops=_p(15.7, 125.0, halves=("float16",)), tdp_w=300,
        mem_gb=16, mem_bw_gbs=900, silicon="gv100", source=_NV + "Tesla V100, SXM2 column",
    ),
    Device(
        "t4", "gpu", "T4", _ONE_GPU, ("t4",), peak_tflops=_p(8.1, 65.0, halves=("float16",)), tdp_w=70, mem_gb=16,
        mem_bw_gbs=320, silicon="tu104", source=_NV + "Tesla T4",
    ),
    Device(
        "p100", "gpu", "P100", _ONE_GPU, ("p100",), peak_tflops=_p(9.3, 18.7, halves=("float16",)), tdp_w=250,
        mem_gb=16, mem_bw_gbs=732, silicon="gp100", source=_NV + "Tesla P100, PCIe 16 GB column",
    ),
    Device(
        "p4", "gpu", "P4", _ONE_GPU, ("p4",), peak_tflops=_p(5.5), tdp_w=75, mem_gb=8, mem_bw_gbs=192,
        silicon="gp104", source=_NV + "Tesla P4",
    ),
    # one GK210 die (half a board) with boost — what Colab gives; 12 GB and 240 GB/s per die
    Device(
        "k80", "gpu", "K80", {"die": 1, "gpu": 1, "board": 2}, ("k80",), "die", _p(4.37), tdp_w=150, mem_gb=12,
        mem_bw_gbs=240, silicon="gk210", source=_NV + "Tesla K80 (per board ÷ 2 dies)",
    ),
    Device("gpu_unknown", "gpu", "GPU (model not stated)", _ONE_GPU),
    Device("tpu_v1", "tpu", "TPU v1", {"chip": 1}, peak_unit="chip"),
    Device(
        "tpu_v2", "tpu", "TPU v2", _TPU_V2, ("tpu v2",), "chip", _p(45.0, 45.0, halves=("bfloat16",)), mem_gb=16,
        mem_bw_gbs=600, silicon="tpu_v2", source=_TPU_DOC + "TPU v2",
    ),
    Device(
        "tpu_v2_8", "tpu", "TPU v2-8", _TPU_V2, (), "chip", _p(45.0, 45.0, halves=("bfloat16",)), mem_gb=16,
        mem_bw_gbs=600, silicon="tpu_v2", source=_TPU_DOC + "TPU v2",
    ),
    Device(
        "tpu_v3", "tpu", "TPU v3", _TPU_V3, ("tpu v3",), "chip", _p(123.0, 123.0, halves=("bfloat16",)), mem_gb=32,
        mem_bw_gbs=900, silicon="tpu_v3", source=_TPU_DOC + "TPU v3",
    ),
    Device(
        "tpu_v3_8", "tpu", "TPU v3-8", _TPU_V3, (), "chip", _p(123.0, 123.0, halves=("bfloat16",)), mem_gb=32,
        mem_bw_gbs=900, silicon="tpu_v3", source=_TPU_DOC + "TPU v3",
    ),
    Device(
        "tpu_v4", "tpu", "TPU v4", _TPU_V4, ("tpu v4",), "chip", _p(275.0, 275.0, halves=("bfloat16",)), mem_gb=32,
        mem_bw_gbs=1200, silicon="tpu_v4", source=_TPU_DOC + "TPU v4",
    ),
    Device("tpu_v4i", "tpu", "TPU v4i", {"chip": 1}, peak_unit="chip"),
    Device(
        "tpu_v5e", "tpu", "TPU v5e", {"core": 1, "chip": 1}, ("tpu v5 lite", "tpu v5e"), "chip", {"bfloat16": 197.0},
        mem_gb=16, mem_bw_gbs=819, silicon="tpu_v5e", source=_TPU_DOC + "TPU v5e",
    ),
    # two TensorCores per chip (megacore); 459 bf16 TFLOP/s, 95 GB HBM2e at 2,765 GB/s per chip
    Device(
        "tpu_v5p", "tpu", "TPU v5p", {"core": 1, "chip": 2}, ("tpu v5p", "tpu v5"), "chip", {"bfloat16": 459.0},
        mem_gb=95, mem_bw_gbs=2765, silicon="tpu_v5p", source=_TPU_DOC + "TPU v5p",
    ),
    # one TensorCore per chip; 918 bf16 TFLOP/s, 32 GB HBM at 1,640 GB/s per chip; no TDP published.
    # JAX names the chip "TPU v6 lite".
    Device(
        "tpu_v6e", "tpu", "TPU v6e", {"core": 1, "chip": 1}, ("tpu v6 lite", "tpu v6e"), "chip", {"bfloat16": 918.0},
        mem_gb=32, mem_bw_gbs=1640, silicon="tpu_v6e", source=_TPU_DOC + "TPU v6e (Trillium)",
    ),
    # TPU7x (Ironwood): two TensorCores per chip, no megacore (JAX sees each core), like the v5p's count. Per chip:
    # 2,307 bf16 / 4,614 fp8 TFLOP/s and 192 GiB HBM (Cloud TPU docs); 7.37 TB/s HBM bandwidth (Google's Ironwood
    # announcement); no TDP published. JAX names the chip "TPU7x".
    Device(
        "tpu_v7", "tpu", "TPU v7", {"core": 1, "chip": 2}, ("tpu7x", "tpu v7", "tpu 7x", "ironwood"), "chip",
        {"bfloat16": 2307.0}, mem_gb=192, mem_bw_gbs=7370, silicon="tpu_v7",
        source=_TPU_DOC + "TPU7x (Ironwood); bandwidth from Google's Ironwood announcement (blog.google, 2025-04)",
    ),
    Device("tpu_unknown", "tpu", "TPU (version not stated)", {"pod": 1}, peak_unit="pod"),
)
BY_KEY: dict[str, Device] = {d.key: d for d in DEVICES}


def key_for_name(device_name: str, device_type: str | None = None) -> str | None:
    """The table key whose alias is in `device_name` ("Tesla T4" → "t4"), optionally of one device type."""
    low = (device_name or "").lower()
    for d in DEVICES:
        if any(a in low for a in d.aliases) and device_type in (None, d.device_type):
            return d.key
    return None


def peak_tflops(key: str, precision: str = "float32") -> float | None:
    """Datasheet peak per peak unit for `precision` (mixed_* policies use their half type), else float32's."""
    dev = BY_KEY.get(key)
    if dev is None:
        return None
    wanted = precision.removeprefix("mixed_")
    return dev.peak_tflops.get(wanted) or dev.peak_tflops.get("float32")


def float32_math(device_name: str, stack: str, op: str, allow_tf32: bool) -> str:
    """The math a float32 `op` ("matmul", "conv2d" or "train") really gets on the GPU named `device_name` under
    `stack` ("cuda" or "rocm"), `allow_tf32` the framework's switch for it: "tf32" only where the chip has TF32/XF32
    matrix units (a "tf32" peak here: none on a T4, V100 or P100, nor on CDNA 4's MI355X) and the stack routes
    float32 there, else "float32". On ROCm convolutions run in full fp32 whatever the switch (MIOpen;
    pytorch/pytorch#190711), so only a bare matmul can get XF32 there, and a training step is costed at FP32 — as
    engine.compare.facts.silicon costs a ROCm float32 row."""
    key = key_for_name(device_name, "gpu")
    if key is None or "tf32" not in BY_KEY[key].peak_tflops or not allow_tf32:
        return "float32"
    return "float32" if stack == "rocm" and op != "matmul" else "tf32"
