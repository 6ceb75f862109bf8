"""An opaque id of this machine, so a dashboard on a shared (team) database judges only its own
workers' processes: a PID from another machine says nothing about a run here.

A random token kept in the data folder (never the host name, which users may not want in a team
store); if that folder is not writable, the id is derived from the kernel's boot id instead.
"""

from __future__ import annotations

import hashlib
import secrets
from functools import cache
from pathlib import Path

from engine import settings

_FILE = ".machine-id"


@cache
def machine_id() -> str:
    path = settings.DATA_DIR / _FILE
    try:
        token = path.read_text().strip()
        if token:
            return token
    except OSError:
        pass
    token = secrets.token_hex(8)
    try:
        path.write_text(token + "\n")
        return token
    except OSError:
        try:
            boot = Path("/proc/sys/kernel/random/boot_id").read_text()
        except OSError:
            return token  # stable for this process only; other processes see a different id
        return hashlib.sha256(boot.encode()).hexdigest()[:16]
