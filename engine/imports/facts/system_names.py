"""One parser for system names that pack their configuration — `LambdaOD_Texas_1xH100_80GB_SXM5_10_0_3_7_v2`,
`Lambda Cloud — RTX A6000`, `8x H100 80GB SXM5 (host-3)`, `Dell 2x H100 80GB SXM5`, `H100_SXM5_HTOff_bk` —
into device, count, memory, form factor, host address, provider prefix and variant.

The device is found by the one hardware table's aliases (engine.catalog.hardware_table; compared with `-`/`_` read
as spaces, so `A100-SXM4-80GB` meets the alias `a100-sxm4-80gb`), else by a model-number pattern for devices
the table does not hold (RTX A6000, P40, MI250). What stands before the device is the provider (a cloud or
vendor prefix, a region); what stands after it, once memory, form factor and host are taken, is the variant
(HTOff, bk, test, v2, NVLink) — so repeats on different hosts are one configuration, and a variant is not.
Pure Python; no pandas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.catalog.hardware_table import BY_KEY, DEVICES
from engine.imports.facts.cpu_names import cpu_name

# Words that name a vendor or a product line, not the configuration: dropped.
_VENDOR_WORDS = {"nvidia", "tesla", "geforce", "quadro", "amd", "radeon", "instinct", "google", "intel", "cloud tpu"}
# TITAN RTX/V/Xp and Apple's M-series (`Apple M3 Max`, as torch and TensorFlow name the device) have no model number
# of the usual shape; Gaudi's generations are 1-3, so `gaudi-8` (an MLPerf platform) is 8 Gaudi, not a Gaudi8; the
# A64FX is the CPU of CPU-only MLPerf HPC systems (Fugaku).
_MODEL = re.compile(
    r"(?<![a-z0-9])(?:tpu ?v\d+[a-z]*|(?:rtx|gtx|titan) ?(?:[a-z]?\d{3,4}|[a-z]?\d{3,4} ?ti)(?: ti)?"
    r"|titan (?:rtx|xp|v|x)|apple m\d{1,2}(?: (?:pro|max|ultra))?|a64fx"
    r"|mi\d{2,3}[a-z]?|gaudi ?[1-3]?|[a-z]{1,2}\d{1,4}[a-z]?)(?![a-z0-9])"
)
_TITLE_WORDS = {"APPLE": "Apple", "PRO": "Pro", "MAX": "Max", "ULTRA": "Ultra", "GAUDI": "Gaudi"}
# Model-number look-alikes that are versions (v2), counts (x8) or cloud machine families (n1, c2, e2).
_NOT_DEVICES = re.compile(r"v\d+|x\d+|[nce]\d|m\d|r\d")
_IPV4 = re.compile(r"(?<![A-Za-z0-9])(?:ip[-_.])?(\d{1,3})[._-](\d{1,3})[._-](\d{1,3})[._-](\d{1,3})(?!\d)")
_MEMORY = re.compile(r"^(\d+(?:\.\d+)?) ?(?:gb|gib|g)$")
_FORM = re.compile(r"^(?:sxm\d?|pcie|nvl|oam|hgx|mxm)$")
_COUNT = re.compile(r"^(\d+) ?[x×*]$|^[x×](\d+)$")
# Settings of the machine (hyper-threading on/off) name a variant wherever they stand, never the provider
_SETTINGS = re.compile(r"^ht ?(?:on|off)$")
# Cloud machine types end in a number that is their vCPU count (n1-standard-2, n1-highmem-8), not a device count
_MACHINE_FAMILIES = {"standard", "highmem", "highcpu", "megamem", "ultramem"}
_SEPARATORS = re.compile(r"[\s_,;/|—–]+|(?<=[A-Za-z0-9])-(?=[A-Za-z0-9])|\s-\s")


@dataclass(frozen=True)
class SystemName:
    """A system name read into its parts ("" or None where the name does not say).

    Attributes:
      device_model: the device as the table shows it (H100, A100 80GB), or the name's own model text.
      hardware_key: the hardware table's key, or None for a device the table does not hold.
      device_count: how many devices (8 for `8x H100`, `8xH100`, `8 × H100`, `x8`); None when not said.
      memory_gb: the device memory the name states (80 for `80GB`).
      form_factor: SXM5, PCIe, NVL …
      host: an IPv4 address in the name (`10_0_3_7` → 10.0.3.7), not part of the configuration.
      provider: what stands before the device: a cloud, vendor or region prefix (LambdaOD Texas, Dell).
      variant: what stands after the device that is none of the above (HTOff, bk, test, v2, NVLink).
      note: text in parentheses that is not the device (`(host-3)`, `(DGX-1)`).
    """

    device_model: str
    hardware_key: str | None = None
    device_count: int | None = None
    memory_gb: float | None = None
    form_factor: str = ""
    host: str = ""
    provider: str = ""
    variant: str = ""
    note: str = ""


def _spaced(text: str) -> str:
    """Separators as single spaces, counts glued to a model split off (`1xH100` → `1x H100`); case kept."""
    text = re.sub(r"(?<![A-Za-z0-9])(\d+) ?[x×*] ?(?=[A-Za-z])", r"\1x ", text)
    text = re.sub(r"(?i)(?<![a-z0-9])tpu ?v(?=\d)", "TPU v", text)  # DAWNBench's "TPUv2 (8 cores)"
    return " ".join(_SEPARATORS.sub(" ", text).split())


def _alias_spans(low: str) -> tuple[str, int, int] | None:
    """(table key, start, end) of the first table alias found as whole words (table order: first wins)."""
    for d in DEVICES:
        for alias in d.aliases:
            a = _spaced(alias).lower()
            m = re.search(rf"(?<![a-z0-9]){re.escape(a)}(?![a-z0-9])", low)
            if m:
                return d.key, m.start(), m.end()
    return None


# TensorCores per chip in a Cloud TPU slice's name (`v3-32`, `v4-8`, `v5p-8` count TensorCores; `v5litepod-8`,
# `v6e-8` count chips): cloud.google.com/tpu/docs/v4 ("each TPU v4 chip contains two TensorCores"), …/v5e, …/v6e.
_CORES_PER_CHIP = {"tpu_v2": 2, "tpu_v3": 2, "tpu_v4": 2, "tpu_v5p": 2, "tpu_v5e": 1, "tpu_v6e": 1}


def _device(spaced: str) -> tuple[str, str | None, int, int] | None:
    """(model text, table key or None, start, end) in the spaced name."""
    low = spaced.lower()
    found = _alias_spans(low)
    if found:
        key, start, end = found
        short = next(d.short for d in DEVICES if d.key == key)
        return short, key, start, end
    for m in _MODEL.finditer(low):
        if not _NOT_DEVICES.fullmatch(m.group()):
            model = re.sub(r"\bTI\b", "Ti", spaced[m.start() : m.end()].upper()).replace("TPU V", "TPU v")
            # One device however spaced: "Gaudi 2" is Gaudi2, "rtx3090" (a file name's) is RTX 3090
            model = re.sub(r"^(RTX|GTX) ?(?=[A-Z]?\d)", r"\1 ", re.sub(r"GAUDI (\d)", r"GAUDI\1", model))
            model = re.sub(r"[A-Z]{3,}", lambda w: _TITLE_WORDS.get(w.group(), w.group()), model)
            return model, None, m.start(), m.end()
    return None


_BACKEND = re.compile(r"^(?:cuda|mps|rocm|hip|xpu)(?::\d+)?(?:\s+[-:]\s+|\s+)", re.IGNORECASE)


def _host(text: str) -> tuple[str, str]:
    """(the name without its IPv4 address or a framework's backend prefix, the address dotted). `CUDA - NVIDIA
    GeForce RTX 4090`, `cuda:0 A100`, `MPS - Apple M3 Max`: the backend that reached the device, not a provider."""
    text = _BACKEND.sub("", text)
    for m in _IPV4.finditer(text):
        parts = [int(p) for p in m.groups()]
        if all(p <= 255 for p in parts):
            return text[: m.start()] + " " + text[m.end() :], ".".join(map(str, parts))
    return text, ""


def _glued_count(before: list[str]) -> int | None:
    """Index of the count word right before the device (`1x` of `LambdaOD_8x_Texas_1xH100`), else None.

    Lambda names a multi-GPU instance's runs on 1, 2, 4 and 8 of its GPUs `LambdaOD_8x_…_1xH100`: the count glued to
    the device is how many devices ran; a count elsewhere in the name is the instance size (kept in the provider).
    """
    return len(before) - 1 if before and _COUNT.match(before[-1].lower()) else None


# Words after a model number that make it a different GPU: (words, as written in the model).
_SUFFIXES = ((("ada", "generation"), "Ada"), (("ada",), "Ada"), (("super",), "SUPER"), (("max", "q"), "Max-Q"),
             (("maxq",), "Max-Q"), (("laptop", "gpu"), "Laptop"), (("laptop",), "Laptop"), (("mobile",), "Mobile"))  # fmt: skip


def _suffixes(after: list[str]) -> tuple[str, list[str]]:
    """('SUPER Max-Q', the words left) for the suffixes that start `after`."""
    found, i = [], 0
    while i < len(after):
        low = [w.lower() for w in after[i : i + 2]]
        match = next(((n, text) for words, text in _SUFFIXES if low[: len(words)] == list(words)
                      for n in (len(words),)), None)  # fmt: skip
        if not match:
            break
        found.append(match[1])
        i += match[0]
    return " ".join(found), after[i:]


def ambiguity(name: str) -> str:
    """Why a name could be read another way, with the reading chosen; "" when it reads one way only.

    `LambdaOD_8x_Texas_1xH100_…` has two counts: the one joined to the device (1) is how many ran, the other (8)
    the instance size; a name with several device models is read as its first; a bare number before the device
    (`DGX-1 with 8 V100`) is read as the count; a suffix (`RTX 6000 Ada`) makes a GPU of its own."""
    text, _ = _host(" ".join(str(name).split()))
    spaced = _spaced(text)
    words = spaced.split()
    counts = [w for w in words if _COUNT.match(w.lower())]
    read = parse_system(name)
    found = _device(spaced)
    if found is None:
        return ""
    as_read = f"read as {f'{read.device_count} × ' if read.device_count else ''}{read.device_model}"
    if len({c.lower() for c in counts}) > 1:  # 1x … 1xGH200 reads the same either way
        chosen = f"{read.device_count}x" if read.device_count is not None else ""
        others = ", ".join(c for c in counts if c.lower() != chosen.lower()) or counts[0]
        return (
            f"two counts ({', '.join(counts)}): {as_read} — the count joined to the device; {others} taken as the "
            "instance size (kept in the provider)"
        )
    second = _device(spaced[: found[2]]) or _device(spaced[found[3] :])
    if second and second[0].lower() != found[0].lower() and second[0].lower() not in read.device_model.lower():
        return f"two devices ({found[0]}, {second[0]}): {as_read}"
    if not counts and read.device_count is not None:
        return f"the bare number {read.device_count} before the device taken as the count: {as_read}"
    suffix = read.device_model.removeprefix(found[0]).strip()
    if suffix and read.hardware_key is None:
        return f"{as_read} — {suffix} makes a GPU of its own, not the {found[0]}"
    return ""


def names_device(name: str) -> bool:
    """Whether a text names an accelerator (a table alias or a model number): `RTX 4090`, `8xH100`, `tpu-v3-32` do;
    an engine (`openai`), a weight file or a run's status (`success`) do not."""
    return _device(_spaced(" ".join(str(name).split()))) is not None


# MLPerf's `NxHOSTxMxACCEL` platforms (`1xXE9712x4GB200`, `2xXE9680x8H100-SXM-80GB`): N hosts of M accelerators each
_HOSTS_OF = re.compile(r"^(?P<hosts>\d+)x(?P<host>[A-Za-z][A-Za-z0-9-]*?)x(?P<each>\d+)x?(?P<device>[A-Za-z].*)$")


def _hosts_of(text: str) -> SystemName | None:
    """`1xXE9712x4GB200` read as 4 × GB200 on host XE9712; None for a name of another shape."""
    packed = _HOSTS_OF.match(text)
    if not (packed and names_device(packed.group("device"))):
        return None
    inner = parse_system(packed.group("device"))
    count = int(packed.group("hosts")) * int(packed.group("each"))
    return replace(inner, device_count=count, provider=" ".join(filter(None, [packed.group("host"), inner.provider])))


def _tpu_slice(key: str, model: str, cores: int) -> tuple[str, str, int | None]:
    """(key, model, chips) of `TPU <key>-<cores>`: a board the table holds (TPU v3-8) as itself; a slice of a
    generation whose naming is known (tpu-v3-32) as that many chips; else the slice's name as the model."""
    board = f"{key}_{cores}"
    if board in BY_KEY:
        return board, BY_KEY[board].short, None
    per = _CORES_PER_CHIP.get(key)
    chips = cores // per if per and cores >= per else None
    return key, (model if chips else f"{model}-{cores}"), chips


def _words_read(
    before: list[str], after: list[str], own: list[str], skip: set[str]
) -> tuple[int | None, float | None, str, list[str], list[str]]:
    """(count, memory, form factor, provider words, variant words) from the words around the device."""
    count: int | None = None
    memory: float | None = None
    form, provider, variant = "", [], []
    glued = _glued_count(before)
    for i, word in enumerate([*before, *after, *own]):
        low = word.lower()
        c = _COUNT.match(low)
        mem = _MEMORY.match(low)
        if c and count is None and glued in (None, i):
            count = int(c.group(1) or c.group(2))
        elif _SETTINGS.match(low):
            variant.append(word)
        elif mem and memory is None:
            memory = float(mem.group(1))
        elif _FORM.match(low) and not form:
            form = word.upper().replace("PCIE", "PCIe")
        elif low in skip or i >= len(before) + len(after):
            continue
        elif i < len(before):
            provider.append(word)
        else:
            variant.append(word)
    return count, memory, form, provider, variant


def parse_system(name: str) -> SystemName:
    """One system name read into SystemName; a name with no device keeps its text as the model."""
    text = " ".join(str(name).split())
    packed = _hosts_of(text)
    if packed:
        return packed
    notes = re.findall(r"\(([^()]*)\)", text)
    text, host = _host(text)
    spaced = _spaced(text)
    found, cpu = _device(spaced), cpu_name(text)
    if found is None or (cpu and found[1] is None):  # a CPU's brand string is its product, not a model number (w7)
        return SystemName(device_model=cpu or text, host=host)
    model, key, start, end = found
    inside = [n for n in notes if model.lower() in _spaced(n).lower()]
    before = _spaced(spaced[:start].replace("(", " ").replace(")", " ")).split()
    after = _spaced(spaced[end:].replace("(", " ").replace(")", " ")).split()
    suffix, after = _suffixes(after)
    if suffix:  # "RTX 6000 Ada", "RTX 2080 SUPER Max-Q": another GPU than the bare model (or the table's)
        model, key = f"{model} {suffix}", None
    slice_chips = None
    if key and key.startswith("tpu_") and after and after[0].isdigit():  # "TPU v3-8": a board of 8 cores
        key, model, slice_chips = _tpu_slice(key, model, int(after.pop(0)))
    # MLPerf platforms `gpu-v100-8`, `gaudi-8`: NAME-N, a number hyphened after the device is how many (not a
    # `…_h100_2024` file name's date)
    dash = re.search(r"(?<=[A-Za-z0-9])-(\d{1,4})$", text)
    trailing = int(after.pop()) if dash and after == [dash.group(1)] and 1 < int(after[0]) <= 4096 else None
    cores = [int(m.group(1)) for n in notes if (m := re.fullmatch(r"(\d+) cores?", n.strip().lower()))]
    if key in ("tpu_v2", "tpu_v3") and cores and f"{key}_{cores[0]}" in BY_KEY:  # "TPUv2 (8 cores)": a v2-8 board
        key = f"{key}_{cores[0]}"
        model = BY_KEY[key].short
    note_words = {w.lower() for n in notes if n not in inside for w in _spaced(n).split()}
    skip = _VENDOR_WORDS | note_words | {model.lower(), "+", "&", "with"}
    own = spaced[start:end].split()  # the alias's own words may state memory and form factor (A100-SXM4-80GB)
    count, memory, form, provider, variant = _words_read(before, after, own, skip)
    count = count or slice_chips or trailing
    machine_type = len(before) >= 2 and before[-2].lower() in _MACHINE_FAMILIES  # n1-standard-2: not a count
    if count is None and before and before[-1].isdigit() and int(before[-1]) <= 4096 and not machine_type:
        count = int(before[-1])
        provider = provider[:-1] if provider and provider[-1] == before[-1] else provider
    return SystemName(
        device_model=model,
        hardware_key=key,
        device_count=count,
        memory_gb=memory,
        form_factor=form,
        host=host,
        provider=" ".join(provider),
        variant=" ".join(variant),
        note=", ".join(n for n in notes if n not in inside),
    )
