"""A fresh interpreter's work is sent without holding up its parent's deadline (stop 62).

``satplan._started`` wrote the child's work into a pipe before returning, and a pipe holds 64 KB: the
rest waited until the child had started and imported its module (0.1-0.5 s), all of it before the
caller's deadline loop began, so a short limit overran by that much. A thread now writes it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading

import pytest

from stratagem.solvers import satplan
from tests.solvers.test_sat_child import other_thread  # noqa: F401 (a fixture: a second thread alive)


@pytest.mark.usefixtures("other_thread")
def test_the_parent_does_not_wait_for_its_child_to_read_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child stopped as it starts (SIGSTOP) never reads: with 2 MB of clauses to send, ``_started``
    blocked on the full pipe until the child went away. It now returns at once, and the child, killed as
    at a deadline, ends; the writer's broken pipe is not an error."""
    started: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    def stopped_at_once(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        child: subprocess.Popen[bytes] = real_popen(*args, **kwargs)  # type: ignore[call-overload]
        os.kill(child.pid, signal.SIGSTOP)
        started.append(child)
        return child

    monkeypatch.setattr(subprocess, "Popen", stopped_at_once)  # the module satplan starts its child with
    clauses = [[n, -(n + 1), n + 2] for n in range(1, 200_000)]  # pickled: about 2 MB
    returned: list[tuple[object, object]] = []
    caller = threading.Thread(target=lambda: returned.append(satplan._started(satplan._child, (clauses, False))),
                              daemon=True)
    caller.start()
    caller.join(timeout=20)
    try:
        assert returned, "_started waited for a child that never read its work"
        connection, child = returned[0]
        assert isinstance(child, satplan._Exec)
    finally:
        for process in started:
            process.kill()  # as at a deadline; a stopped process dies of SIGKILL too
            process.wait()
        caller.join(timeout=20)
    assert not caller.is_alive()
    connection.close()  # type: ignore[attr-defined]
