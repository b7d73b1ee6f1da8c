"""Celery adapters: load by id, call the service, decide on retry. Nothing else lives here."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_process_shutdown
from django.conf import settings

from league.ladders.matchmaking import matchmaking_tick as _matchmaking_tick
from league.ladders.models import Match
from league.ladders.reaper import reaper_tick as _reaper_tick
from league.ladders.running import RunOutcome, match_run
from league.ladders.seasons import seasons_tick as _seasons_tick
from league.ladders.writer import WRITER

log = logging.getLogger(__name__)


@shared_task(name="league.ladders.tasks.run_match_task")
def run_match_task(match_id: int) -> str:
    outcome = match_run(match_id=match_id,
                        background_write=settings.LEAGUE_BACKGROUND_WRITE)
    if outcome is RunOutcome.RETRY:
        # The row is queued again; a fresh message after a backoff brings its next attempt.
        attempts = Match.objects.values_list("attempts", flat=True).get(pk=match_id)
        run_match_task.apply_async((match_id,), countdown=min(60, 2 ** attempts))
    return outcome.value


@shared_task(name="league.ladders.tasks.matchmaking_tick")
def matchmaking_tick() -> dict[str, int]:
    # Seasons first: a season that ends is closed (and the next started) before the fill
    # makes matches for it. A fault there must not stop matchmaking: the next beat retries.
    try:
        _seasons_tick()
    except Exception:
        log.exception("the seasons' tick failed; tried again at the next beat")
    return _matchmaking_tick()


@shared_task(name="league.ladders.tasks.reaper_tick")
def reaper_tick() -> dict[str, list[int]]:
    reaped = _reaper_tick()
    return {"requeued": reaped.requeued, "failed": reaped.failed, "resent": reaped.resent}



@worker_process_shutdown.connect
def _flush_results(**_: object) -> None:
    """A pool process stopping (warm shutdown, recycling) first writes what it played."""
    WRITER.flush(timeout=30)
