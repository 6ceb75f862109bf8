"""Who measured a row and on what software stack, as a sentence names them: read from the row's own settings, the
same for every stage (scaled rows, TPU chains, rows listed beside the ranking)."""

from __future__ import annotations

from dataclasses import replace

from engine.compare.facts import likeforlike as lfl
from engine.reference.units import HARDWARE

# Publishers named in a ratio's words ("Lambda's B200/H100 ratio"); else the row's source id.
PUBLISHERS = ("Lambda", "MLPerf", "NVIDIA", "Google", "AMD", "TensorFlow", "RiseML", "Puget", "Microsoft", "Intel")


def publisher(r: lfl.Rate) -> str:
    """A source's short name for a sentence: 'Lambda', 'MLPerf', … (else its source id)."""
    text = f"{r.settings.get('source_title') or ''} {r.settings.get('source_url') or ''}".lower()
    return next((p for p in PUBLISHERS if p.lower() in text), r.source_id or "one source")


def with_stack(r: lfl.Rate) -> lfl.Rate:
    """A published row listed beside a scaled one, its stack named: 'B200 (published, PyTorch, fp16)'."""
    fw = r.stack
    if r.basis != "published" or not fw or fw in r.label:
        return r
    name = str(
        r.settings.get("hardware") or (HARDWARE[r.hardware_key].short if r.hardware_key in HARDWARE else r.hardware_key)
    )
    return replace(r, label=f"{name} (published, {fw}, {r.precision_words})")
