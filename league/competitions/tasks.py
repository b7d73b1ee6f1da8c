"""Celery adapters: the beat's tick over competitions, and the bell a finished competition
match rings (sent by name from ``ladders.lifecycle``)."""

from __future__ import annotations

from celery import shared_task

from league.competitions.progress import competitions_tick, match_ended
from league.ladders.lifecycle import COMPETITION_BELL


@shared_task(name="league.competitions.tasks.competitions_tick")
def competitions_tick_task() -> dict[str, int]:
    return competitions_tick()


@shared_task(name=COMPETITION_BELL)
def match_ended_task(match_id: int) -> None:
    match_ended(match_id=match_id)
