"""The frameworks AccelBench runs on, the range of versions it supports for each, and how to add a missing one.

On Colab, Kaggle or a cloud VM the runtime's TensorFlow, JAX or PyTorch is built for its GPU/TPU; replacing
it would cost minutes of downloads and may lose the accelerator. So the engine never installs or upgrades a
framework (issue 32): it reads the installed versions from package metadata (no import: the CLI stays free
of TensorFlow), says on stderr which lie outside the supported range, and runs anyway; the run row keeps
the versions it ran on (tf_version, framework_version, keras_version).

`SUPPORT` is the one table of ranges; pyproject.toml's extras repeat them (tests/package checks that they
agree). `TESTED` is the pinned version the suite runs (requirements.txt); in a checkout a missing framework
is installed at that pin, in an installed wheel through the package's extra.
"""

from __future__ import annotations

import importlib.metadata
import re
from dataclasses import dataclass
from pathlib import Path

from engine import paths


@dataclass(frozen=True)
class Support:
    """One framework's supported versions: `minimum` ≤ version < `below` (release numbers only).

    Attributes:
      name: the framework as users name it ("tensorflow", "keras", "jax", "torch").
      dists: the distributions that provide it (a TPU or CPU build has its own name), first found wins.
      minimum: the oldest supported release.
      below: the first release not supported (the next major, or the first untested minor).
    """

    name: str
    dists: tuple[str, ...]
    minimum: tuple[int, ...]
    below: tuple[int, ...]

    @property
    def specifier(self) -> str:
        """The range as a pip requirement specifier, e.g. ">=2.16,<2.22"."""
        return f">={_dotted(self.minimum)},<{_dotted(self.below)}"


SUPPORT: dict[str, Support] = {
    # Keras 3 is what the zoo's models need; TensorFlow ships Keras 3 from 2.16 on.
    "tensorflow": Support(
        "tensorflow", ("tensorflow", "tensorflow-cpu", "tensorflow-tpu", "tf-nightly"), (2, 16), (2, 22)
    ),
    "keras": Support("keras", ("keras", "keras-nightly"), (3, 6), (4,)),
    "jax": Support("jax", ("jax",), (0, 4, 34), (0, 11)),
    "torch": Support("torch", ("torch",), (2, 4), (2, 15)),
}
# The versions the suite runs (requirements.txt); a checkout installs a missing framework at these pins.
TESTED = {"tensorflow": "2.21.0", "keras": "3.15.1", "jax": "0.10.2", "torch": "2.13.0"}

# The frameworks a backend's run imports, and the package extra that adds them to an installed wheel.
FRAMEWORKS_OF = {
    "tensorflow": ("tensorflow", "keras"),
    "jax": ("jax", "keras"),
    "torch": ("torch",),
    "keras-torch": ("torch", "keras"),
}
EXTRA_OF = {"tensorflow": "tensorflow", "jax": "jax", "torch": "torch", "keras-torch": "torch"}
# PyTorch's CPU-only wheels: PyPI's default torch wheel carries GBs of CUDA libraries a CPU-only VM cannot use.
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
_CHECKOUT_INSTALL = {
    "tensorflow": f"pip install tensorflow=={TESTED['tensorflow']}",
    "jax": f"pip install jax=={TESTED['jax']} jaxlib=={TESTED['jax']}",
    "torch": f"pip install torch=={TESTED['torch']} --index-url {TORCH_CPU_INDEX}",
    # the optional parts other than a framework, at requirements*.txt's pins
    "postgres": 'pip install "psycopg[binary]==3.3.9"',
    "ray": "pip install 'ray[default]==2.60.0'",
    "pillow": "pip install pillow==13.0.0",
}


def _dotted(release: tuple[int, ...]) -> str:
    return ".".join(str(n) for n in release)


def release(version: str) -> tuple[int, ...] | None:
    """The leading release numbers of a version string ("2.13.0+cpu" → (2, 13, 0), "0.5.0.dev20250101" →
    (0, 5, 0)); None when it starts with no number."""
    numbers = re.match(r"\d+(?:\.\d+)*", version.strip().lstrip("vV"))
    return tuple(int(n) for n in numbers.group(0).split(".")) if numbers else None


def installed_version(name: str) -> str | None:
    """The installed version of a framework, from its distribution's metadata (nothing is imported)."""
    for dist in SUPPORT[name].dists:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def outside_range(name: str, version: str) -> str | None:
    """None when `version` of framework `name` is supported, else one sentence saying why not."""
    support = SUPPORT[name]
    numbers = release(version)
    if numbers is None:
        return f"{name} {version} is not a version AccelBench can compare with {support.specifier}"
    if support.minimum <= numbers < support.below:
        return None
    return (
        f"{name} {version} is outside the range AccelBench supports ({support.specifier}; tested "
        f"{TESTED[name]}): running on it anyway, its numbers may differ"
    )


def backend_warnings(backend: str) -> list[str]:
    """One line per framework of `backend` installed at a version outside its supported range."""
    lines = []
    for name in FRAMEWORKS_OF[backend]:
        version = installed_version(name)
        problem = outside_range(name, version) if version else None
        if problem:
            lines.append(problem)
    return lines


def versions() -> dict[str, str | None]:
    """Every framework's installed version (None: not installed), for `accelbench devices`."""
    return {name: installed_version(name) for name in SUPPORT}


def install_command(backend: str) -> str:
    """The one command that adds a missing backend: the package's extra for an installed wheel, the
    suite's pin in a checkout (whose requirements.txt pins the rest)."""
    return extra_install_command(EXTRA_OF[backend])


def extra_install_command(extra: str) -> str:
    """The one command that adds an optional part (a framework's extra, "postgres", "ray"): the package's
    extra for an installed wheel, the suite's pin in a checkout. PyTorch on a machine with no NVIDIA GPU
    comes from its CPU index first, so pip does not pull the CUDA stack (GBs) for nothing."""
    if not paths.installed():
        return _CHECKOUT_INSTALL[extra]
    command = f'pip install "accelbench[{extra}]"'
    if extra == "torch" and not has_nvidia_device():
        return f"pip install torch --index-url {TORCH_CPU_INDEX} && {command}"
    return command


def has_nvidia_device() -> bool:
    """Whether an NVIDIA driver exposes a device here (/dev/nvidia0…): a file check, no NVML, no framework."""
    return any(Path("/dev").glob("nvidia[0-9]*"))


def keras_install_command(backend: str) -> str:
    """The command that adds Keras 3 for a Keras backend whose framework is there but Keras is not."""
    return install_command(backend) if paths.installed() else f"pip install keras=={TESTED['keras']}"


def pillow_install_command(backend: str | None = None) -> str:
    """The command that adds Pillow, which writes the sampled JPEGs and decodes them off TensorFlow (native torch's
    DataLoader, the NumPy/PIL pipeline of Keras on JAX or torch): the backend's extra brings it to an installed
    wheel (no backend: Pillow alone, in the extras' range); requirements.txt's pin in a checkout."""
    if not paths.installed():
        return _CHECKOUT_INSTALL["pillow"]
    return install_command(backend) if backend else 'pip install "pillow>=10,<14"'
