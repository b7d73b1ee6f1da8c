"""A with-block that runs a database action every few seconds beside the code it wraps, for a
match's side work (its heartbeat, its live moves) while the referee plays it.

Every block of a process shares one thread, started on first use (in the process that plays,
not in a parent that forks), so its database connection lasts from match to match instead of
being opened by a new thread for each: ~5 ms a connection, and a session for the database to
hold. Actions handle their own errors (a blip must not end a match) and close a connection that
broke, so the next action opens a fresh one.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Self

log = logging.getLogger(__name__)


class _SideThread:
    """Runs the registered actions, each when it falls due, one at a time."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._jobs: dict[int, list] = {}  # key -> [due, interval, action]
        self._running: int | None = None
        self._keys = itertools.count()
        self._thread = threading.Thread(target=self._run, daemon=True, name="match-side-work")
        self._thread.start()

    def add(self, interval: float, action: Callable[[], None]) -> int:
        with self._cond:
            key = next(self._keys)
            self._jobs[key] = [time.monotonic() + interval, interval, action]
            self._cond.notify_all()
            return key

    def remove(self, key: int) -> None:
        """Unregisters ``key``, waiting for its action if it is running now: none runs after."""
        with self._cond:
            self._jobs.pop(key, None)
            while self._running == key:
                self._cond.wait()

    def _run(self) -> None:
        cond = self._cond
        while True:
            with cond:
                while True:
                    now = time.monotonic()
                    key, job = min(self._jobs.items(), key=lambda kv: kv[1][0],
                                   default=(None, None))
                    if job is not None and job[0] <= now:
                        break
                    cond.wait(None if job is None else job[0] - now)
                job[0] = now + job[1]
                self._running = key
            try:
                job[2]()
            except Exception:  # actions catch their own; this thread must outlive any bug
                log.exception("side work failed")
            finally:
                with cond:
                    self._running = None
                    cond.notify_all()


_side: _SideThread | None = None
_side_lock = threading.Lock()


def _side_thread() -> _SideThread:
    global _side
    with _side_lock:
        if _side is None:
            _side = _SideThread()
        return _side


def _forget_after_fork() -> None:
    """A forked child has the parent's object but not its thread (nor, maybe, free locks)."""
    global _side, _side_lock
    _side, _side_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)


class Every:
    """Calls ``action`` every ``interval`` seconds until the block ends, from the process's
    side thread; when the block ends, no call is running or left to run."""

    def __init__(self, interval: float, action: Callable[[], None], name: str) -> None:
        self.interval = interval
        self.action = action
        self.name = name
        self._key: int | None = None

    def __enter__(self) -> Self:
        self._key = _side_thread().add(self.interval, self.action)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._key is not None:
            _side_thread().remove(self._key)
            self._key = None
