"""Pausing a bot that is not on move: SIGSTOP its processes, the cgroup freezer as a backstop.

Measured on this worker kind (cgroup v1): a freeze+thaw round trip of the freezer costs
~100 µs, SIGSTOP+SIGCONT of one process ~5 µs. So the members are stopped by signal,
through pidfds (a pid cannot be recycled under us between two turns), and the membership is
read once after stopping: if it changed (a bot forking to dodge the stop) the whole cgroup is
frozen as well, which catches every process.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable

from sandbox.cgroups import Cgroup


class Pauser:
    def __init__(self, members: Callable[[], tuple[int, ...]], cgroup: Cgroup | None) -> None:
        self._members = members
        self._cgroup = cgroup
        self._fds: dict[int, int] = {}
        self._frozen = False

    def _track(self, pids: tuple[int, ...]) -> None:
        for pid in pids:
            if pid not in self._fds:
                with contextlib.suppress(OSError):
                    self._fds[pid] = os.pidfd_open(pid)

    def _signal_all(self, sig: int) -> None:
        for pid, fd in list(self._fds.items()):
            try:
                signal.pidfd_send_signal(fd, sig)
            except ProcessLookupError:
                os.close(self._fds.pop(pid))

    def pause(self) -> None:
        if not self._fds:
            self._track(self._members())
        self._signal_all(signal.SIGSTOP)
        now = self._members()
        if set(now) != set(self._fds):
            self._track(now)
            self._signal_all(signal.SIGSTOP)
            if self._cgroup is not None and self._cgroup.can_freeze:
                self._cgroup.freeze()
                self._frozen = True

    def resume(self) -> None:
        if self._frozen and self._cgroup is not None:
            self._cgroup.thaw()
            self._frozen = False
        self._signal_all(signal.SIGCONT)

    def release(self) -> None:
        """Thaw if frozen (a frozen v1 task cannot die) and forget the pidfds."""
        if self._frozen and self._cgroup is not None:
            with contextlib.suppress(OSError):
                self._cgroup.thaw()
            self._frozen = False
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
