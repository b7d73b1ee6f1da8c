"""Celery adapters, run by the ticks' worker: the beat's tick over competitions, and the bell a
competition's match rings when it has ended (``ladders.lifecycle.tell_end``)."""

from __future__ import annotations

from celery import shared_task

from league.competitions.progress import competitions_tick, match_ended
from league.ladders.kinds import COMPETITION_ENDED_TASK


@shared_task(name="league.competitions.tasks.competitions_tick")
def competitions_tick_task() -> dict[str, int]:
    return competitions_tick()


@shared_task(name=COMPETITION_ENDED_TASK)
def match_ended_task(match_id: int) -> None:
    match_ended(match_id=match_id)
