"""A with-block that runs a database action every few seconds from a thread of its own, for a
match's side work (its heartbeat, its live moves) while the referee plays it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Self

from django.db import connection


class Every:
    """Calls ``action`` every ``interval`` seconds until the block ends. The thread has its own
    database connection (Django's are per thread), closed when it stops; ``action`` handles
    its own errors, since a blip must not end the match."""

    def __init__(self, interval: float, action: Callable[[], None], name: str) -> None:
        self.interval = interval
        self.action = action
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=name)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                self.action()
        finally:
            connection.close()
