"""Celery adapters, run by the ticks' worker: the bell a test's match rings when it has ended
(``ladders.lifecycle.tell_end``), the bell of every validation (an upload with a test starts
its test), and the beat's tick over the running tests."""

from __future__ import annotations

from celery import shared_task

from league.ladders.kinds import VALIDATED_TASK, VERSIONTEST_ENDED_TASK
from league.versiontests.progress import match_ended, versiontests_tick
from league.versiontests.uploads import uploads_tick, validation_ended

VERSIONTESTS_TICK_TASK = "league.versiontests.tasks.versiontests_tick"


@shared_task(name=VERSIONTEST_ENDED_TASK)
def match_ended_task(match_id: int) -> None:
    match_ended(match_id=match_id)


@shared_task(name=VALIDATED_TASK)
def version_validated_task(match_id: int) -> None:
    validation_ended(match_id=match_id)


@shared_task(name=VERSIONTESTS_TICK_TASK)
def versiontests_tick_task() -> int:
    # the uploads' tests first: one whose bell was lost starts, and is then moved on
    uploads_tick()
    return versiontests_tick()
