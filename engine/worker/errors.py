"""Errors the worker turns into a stored one-line reason, importable without any framework."""

from __future__ import annotations


class PlacementError(RuntimeError):
    """The requested device is not what the framework sees or used."""
