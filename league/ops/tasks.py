"""Celery hooks of the ops app (autodiscovered by the worker): presence while a worker runs;
the beat's database upkeep."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.signals import worker_ready, worker_shutdown

from league.ops.database import statistics_keep
from league.ops.presence import Presence

_presence: Presence | None = None


@worker_ready.connect
def _start_presence(sender: Any = None, **_: object) -> None:
    global _presence
    from django.conf import settings

    queues = getattr(getattr(getattr(sender, "app", None), "amqp", None), "queues", None)
    consumed = set(getattr(queues, "consume_from", None) or {})
    if consumed and settings.LEAGUE_MATCH_QUEUE not in consumed:
        return  # the ticks' worker plays no match: it has no slots to show
    concurrency = getattr(getattr(sender, "controller", None), "concurrency", None) or 1
    _presence = Presence(int(concurrency))
    _presence.start()


@worker_shutdown.connect
def _stop_presence(**_: object) -> None:
    if _presence is not None:
        _presence.close()


@shared_task(name="league.ops.tasks.database_tick")
def database_tick() -> list[str]:
    """The tables whose statistics were renewed (SQLite; nothing on PostgreSQL)."""
    return statistics_keep().analysed
