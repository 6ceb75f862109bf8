"""Ray Client's own threads keep their tracebacks in the log, not the terminal (issue 45): when the head goes away,
its log channel logs `Unexpected exception:` with a traceback, and a channel thread can die of an exception. Both
run here through Ray's real code (its LogstreamClient, on a client whose head is gone), without starting a head."""

from __future__ import annotations

import logging
import threading
from types import SimpleNamespace

import pytest

from engine.sweep import ray_log

pytest.importorskip("ray", reason="Ray is installed by scripts/test.sh (requirements-test.txt)")
import grpc  # noqa: E402 (installed with Ray)
from ray.util.client.logsclient import LogstreamClient  # noqa: E402


def _in_thread(target, *args) -> None:
    t = threading.Thread(target=target, args=args)
    t.start()
    t.join()


def _lost_channel(client: SimpleNamespace) -> None:
    try:
        raise grpc.RpcError("the head went away")
    except grpc.RpcError as exc:
        LogstreamClient._process_rpc_error(client, exc)  # type: ignore[arg-type]  # Ray's: logger.exception(...)


def test_ray_clients_thread_tracebacks_go_to_the_log_and_other_threads_keep_theirs(tmp_path, capfd, monkeypatch):
    seen: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(args.exc_value))
    loggers = [logging.getLogger(name) for name in ray_log.CLIENT_LOGGERS]
    for logger in loggers:  # restored after the test, as the hook is
        monkeypatch.setattr(logger, "handlers", [])
        monkeypatch.setattr(logger, "propagate", logger.propagate)
    log = ray_log.keep_in_log(tmp_path / "runs" / "ray_client.log")
    gone = SimpleNamespace(client_worker=SimpleNamespace(_can_reconnect=lambda e: False, _in_shutdown=False))
    _in_thread(_lost_channel, gone)
    _in_thread(LogstreamClient._log_main, SimpleNamespace())  # dies inside Ray: no client worker
    _in_thread(int, "not a number")  # not Ray's: the hook that was there before sees it
    for handler in loggers[0].handlers:
        handler.flush()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Unexpected exception" not in err, err
    text = log.read_text()
    assert "Unexpected exception:" in text and "RpcError: the head went away" in text, text
    assert "exception in Ray's thread" in text and "AttributeError" in text and "logsclient.py" in text, text
    assert len(seen) == 1 and isinstance(seen[0], ValueError)
