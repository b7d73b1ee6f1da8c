"""Pausing a bot that is not on move: SIGSTOP, with the cgroup freezer as the backstop.

Measured on this worker kind (cgroup v1, a VM): a freezer freeze+thaw round trip costs
~100 µs, reading ``cgroup.procs`` ~30 µs (v1 builds a pid list per open), stopping and
continuing one sleeping process ~25 µs. A turn must cost under 50 µs, so the common case is
cheap and exact:

- The bot is pid 1 of its own pid namespace (bwrap ``--as-pid-1``, or a container), so
  every other process in its sandbox is a descendant, and orphans are re-parented to it.
- Fast path: SIGSTOP the bot through a pidfd (a pid cannot be recycled under us between
  turns), then check that none of its threads has a child. If not, it is alone: done.
- Otherwise (a bot that forks): stop every member of its cgroup and freeze the cgroup too,
  which catches processes created while we were stopping the others.

A process that has exited by the time it is signalled is expected (``ProcessLookupError``:
nothing left to stop). Anything else that fails (a pidfd that cannot be opened, a cgroup that
cannot be read or frozen) raises ``OSError`` to the backend, which reports it as a
``BackendFault``: a pause that silently did not happen would let the bot think in its
opponent's time.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable

from sandbox.cgroups import Cgroup

log = logging.getLogger(__name__)


def _has_children(pid: int) -> bool:
    """Whether any thread of ``pid`` has a child (raw ``os`` calls: ``open()`` costs 3x more)."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for tid in tids:
        try:
            fd = os.open(f"/proc/{pid}/task/{tid}/children", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            if os.read(fd, 64).strip():
                return True
        finally:
            os.close(fd)
    return False


class Pauser:
    """Stops and continues one sandboxed bot.

    ``root`` gives the bot's host pid (pid 1 of its namespace) once it exists; ``members``
    lists every process of the sandbox (its cgroup, or its process tree without cgroups).
    """

    def __init__(self, root: Callable[[], int | None], members: Callable[[], tuple[int, ...]],
                 cgroup: Cgroup | None) -> None:
        self._root = root
        self._members = members
        self._cgroup = cgroup
        self._root_pid: int | None = None
        self._fds: dict[int, int] = {}
        self._frozen = False

    def _track(self, pids: tuple[int, ...] | list[int]) -> None:
        for pid in pids:
            if pid not in self._fds:
                try:
                    self._fds[pid] = os.pidfd_open(pid)
                except ProcessLookupError:
                    continue  # exited since it was listed: nothing to stop

    def _signal_all(self, sig: int) -> None:
        for pid, fd in list(self._fds.items()):
            try:
                signal.pidfd_send_signal(fd, sig)
            except ProcessLookupError:
                os.close(self._fds.pop(pid))

    def pause(self) -> None:
        if self._root_pid is None:
            self._root_pid = self._root()
            if self._root_pid is not None:
                self._track([self._root_pid])
        self._signal_all(signal.SIGSTOP)
        alone = (self._root_pid is not None and list(self._fds) == [self._root_pid]
                 and not _has_children(self._root_pid))
        if alone:
            return
        members = self._members()
        self._track(members)
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
            # Best effort: the bot is being killed and its cgroup swept, which reports what
            # is left; say why, since a cgroup left frozen is why its tasks would not die.
            try:
                self._cgroup.thaw()
            except OSError as error:
                log.error("could not thaw cgroup %s before killing it: %s",
                          self._cgroup.procs_files[0], error)
            self._frozen = False
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
