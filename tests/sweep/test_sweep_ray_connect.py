"""Connecting to a Ray cluster: a busy head's one-off "Initialization failure from server" is retried; every other
failure is reported at once. Ray Client's refusal cannot be caused on demand, so a small stand-in for the `ray`
module plays the head (the real connection is tests/sweep/test_sweep_ray_cli.py's)."""

from __future__ import annotations

import pytest

from engine.sweep import ray_dispatch


class _Head:
    def __init__(self, failures: list[Exception]) -> None:
        self.failures, self.inits, self.shutdowns = failures, 0, 0

    def init(self, address: str, log_to_driver: bool) -> None:
        self.inits += 1
        if self.failures:
            raise self.failures.pop(0)

    def shutdown(self) -> None:
        self.shutdowns += 1


@pytest.fixture(autouse=True)
def _no_pause(monkeypatch):
    monkeypatch.setattr(ray_dispatch, "CONNECT_PAUSE_S", 0.0)


def test_an_initialization_failure_is_retried_and_then_connects():
    head = _Head([ConnectionAbortedError("Initialization failure from server:\n")])
    ray_dispatch._connect(head, "ray://127.0.0.1:10001")
    assert head.inits == 2 and head.shutdowns == 1


def test_it_gives_up_after_the_last_try():
    head = _Head([ConnectionAbortedError("Initialization failure from server:\n")] * 5)
    with pytest.raises(ConnectionAbortedError):
        ray_dispatch._connect(head, "ray://127.0.0.1:10001")
    assert head.inits == ray_dispatch.CONNECT_TRIES


def test_a_refused_connection_is_not_retried():
    head = _Head([ConnectionError("ray client connection timeout"), None])  # type: ignore[list-item]
    with pytest.raises(ConnectionError, match="timeout"):
        ray_dispatch._connect(head, "ray://127.0.0.1:1")
    assert head.inits == 1
