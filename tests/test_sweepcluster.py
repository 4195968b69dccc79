"""Closing a sweep's Dask cluster within a bounded time, whatever arrives meanwhile (:mod:`stratagem.sweepcluster`)."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

import pytest

from stratagem.sweepcluster import close


class LocalCluster:  # named as Dask's embedded cluster, which close() tells apart by its name
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.shutdown_on_close = True

    def close(self, timeout: float) -> None:
        time.sleep(self.seconds)


class Client:
    def __init__(self, cluster: LocalCluster, pids: list[int]) -> None:
        self.cluster = cluster
        self.stratagem_worker_pids = pids

    def close(self, timeout: float) -> None:
        pass


def test_a_ctrl_c_while_the_cluster_closes_leaves_no_second_close_for_exit() -> None:
    """A Ctrl-C that arrives while the embedded cluster closes is raised after the close is settled, and
    Dask's own close at exit (its atexit hook, which printed a traceback then) is told the cluster is
    done with (``shutdown_on_close``)."""
    cluster = LocalCluster(seconds=3.0)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        close(Client(cluster, []), timeout=5.0)
    assert time.monotonic() - started < 2.0
    assert cluster.shutdown_on_close is False


def test_a_close_that_finishes_in_time_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    killed: list[Any] = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: killed.append(pid))
    quick = LocalCluster(seconds=0.0)
    assert close(Client(quick, [123]), timeout=2.0) is True and killed == [] and quick.shutdown_on_close is False
    slow = LocalCluster(seconds=2.0)
    assert close(Client(slow, [123]), timeout=0.2) is False and killed == [123]  # its workers ended by us


def test_a_real_scheduler_passes_the_greeting_check() -> None:
    """The check reads Dask's own handshake (a scheduler speaks first, its first 8 bytes the length of the
    rest): a scheduler of the installed distributed must pass it, or every --scheduler sweep would be
    refused should Dask change its wire format."""
    distributed = pytest.importorskip("distributed")
    from stratagem.sweepcluster import _check_greeting

    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://")
        _check_greeting(address, 5.0)
        _check_greeting(address.removeprefix("tcp://"), 5.0)  # host:port, Dask's default scheme
