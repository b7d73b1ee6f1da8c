"""Writing a played match's result off the worker's critical path.

The write (one transaction: participants, replay, standings) holds no bot and no core's clock,
so a worker hands it to this thread and takes its next match at once. Safety does not depend on
the thread: the write is guarded by the claim, and a write that never happens (the process
killed, the database gone) leaves the match ``running`` with a silent heartbeat, which the
reaper re-queues. Writes of one process run one at a time, in order.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from django.db import close_old_connections

log = logging.getLogger(__name__)


class ResultWriter:
    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._pending: set[Future] = set()

    def submit(self, write: Callable[[], object]) -> Future:
        with self._lock:
            if self._pool is None:  # made lazily: after the fork, in the process that writes
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="result-writer")
            future = self._pool.submit(self._run, write)
            self._pending.add(future)
        future.add_done_callback(self._pending.discard)
        return future

    @staticmethod
    def _run(write: Callable[[], object]) -> object:
        close_old_connections()  # a connection broken since the last write is replaced
        try:
            return write()
        except Exception:
            log.exception("writing a match result failed; the reaper will re-run the match")
            raise

    def flush(self, timeout: float | None = None) -> None:
        """Wait for every pending write (a worker process calls it before it exits)."""
        for future in list(self._pending):
            # a failed write is already logged, and the reaper re-runs its match
            with contextlib.suppress(Exception):
                future.result(timeout)


WRITER = ResultWriter()
