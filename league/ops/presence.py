"""A Celery worker saying it is alive: a thread in the worker's main process upserts its
``WorkerPresence`` row every ``LEAGUE_WORKER_BEAT_SECONDS`` and touches a file that the
container's health check reads (no Python start, no broker round trip per check)."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from league.ops.models import WorkerPresence

log = logging.getLogger(__name__)


def alive_file() -> Path:
    """Touched on every beat; docker/compose.yml's health check reads its age."""
    return Path(settings.DATA_DIR) / "worker-alive"


class Presence:
    def __init__(self, concurrency: int) -> None:
        self.name = socket.gethostname()
        self.concurrency = concurrency
        self.started_at = timezone.now()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="worker-presence")

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        try:
            while True:
                self.beat()
                if self.stop.wait(settings.LEAGUE_WORKER_BEAT_SECONDS):
                    return
        finally:
            connection.close()

    def beat(self) -> None:
        try:
            close_old_connections()
            WorkerPresence.objects.update_or_create(name=self.name[:200], defaults={
                "concurrency": self.concurrency, "started_at": self.started_at,
                "seen_at": timezone.now(), "backend": settings.LEAGUE_SANDBOX_BACKEND})
            alive_file().touch()
        except Exception:  # the database restarting: the next beat tries again
            log.warning("worker presence: could not record a beat", exc_info=True)

    def close(self) -> None:
        """A clean stop: leave the list at once rather than linger as lost."""
        self.stop.set()
        self.thread.join(5)
        with contextlib.suppress(Exception):
            WorkerPresence.objects.filter(name=self.name[:200]).delete()
        connection.close()
