"""Celery adapter: the beat's tick over competitions. (A finished game moves its competition
on in the worker that wrote it: ``ladders.lifecycle.ring_competition``.)"""

from __future__ import annotations

from celery import shared_task

from league.competitions.progress import competitions_tick


@shared_task(name="league.competitions.tasks.competitions_tick")
def competitions_tick_task() -> dict[str, int]:
    return competitions_tick()
