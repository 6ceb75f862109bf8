"""The store's timestamps: UTC, ISO 8601 with microseconds and a Z, so text order is time order."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
