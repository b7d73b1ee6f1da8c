"""Celery hooks of the ops app (autodiscovered by the worker): presence while a worker runs."""

from __future__ import annotations

from typing import Any

from celery.signals import worker_ready, worker_shutdown

from league.ops.presence import Presence

_presence: Presence | None = None


@worker_ready.connect
def _start_presence(sender: Any = None, **_: object) -> None:
    global _presence
    concurrency = getattr(getattr(sender, "controller", None), "concurrency", None) or 1
    _presence = Presence(int(concurrency))
    _presence.start()


@worker_shutdown.connect
def _stop_presence(**_: object) -> None:
    if _presence is not None:
        _presence.close()
