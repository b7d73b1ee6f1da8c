"""The reaper: the database is the truth and the broker only a doorbell.

A running match whose heartbeat stopped (its worker died) goes back to the queue, or to
``failed`` once it has used its attempts; a queued match whose message was sent long ago and
never claimed (a lost message, a broker restarted empty) is sent again. Claims make a doubled
message harmless, so the reaper can afford to be generous.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from league.ladders.kinds import queue_of
from league.ladders.lifecycle import (
    FAILED,
    QUEUED,
    RUNNING,
    match_enqueue,
    match_move,
)
from league.ladders.live import carry_over_requeued
from league.ladders.models import Match
from league.logs import match_fields

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reaped:
    requeued: list[int]
    failed: list[int]
    resent: list[int]


def reaper_tick() -> Reaped:
    now = timezone.now()
    stale = now - timedelta(seconds=settings.LEAGUE_STALE_AFTER)
    lost = Match.objects.filter(status__open=True, status=RUNNING, heartbeat_at__lt=stale)
    failed = []
    for match_id in lost.filter(attempts__gte=settings.LEAGUE_MAX_ATTEMPTS).values_list(
            "pk", flat=True):
        # Conditional on the same staleness: a match that beat meanwhile is left alone.
        if match_move(lost.filter(pk=match_id), FAILED, reason="worker-lost",
                      claim_token="", finished_at=now,
                      detail=f"its worker stopped answering on each of "
                             f"{settings.LEAGUE_MAX_ATTEMPTS} attempts"):
            failed.append(match_id)
    requeued = []
    for match_id in lost.values_list("pk", flat=True):
        if match_move(lost.filter(pk=match_id), QUEUED, claim_token="",
                      detail=F("claimed_by")):
            requeued.append(match_id)
    carry_over_requeued(requeued)  # a person's game goes on where it was (ladders.live)
    resend_before = now - timedelta(seconds=settings.LEAGUE_RESEND_AFTER)
    unclaimed = list(Match.objects.filter(status__open=True, status=QUEUED).filter(
        Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=resend_before))
        .values_list("pk", flat=True))
    again = requeued + unclaimed
    by_queue: dict[str, list[int]] = {}
    for match_id, kind in Match.objects.filter(pk__in=again).values_list("pk", "kind") \
            if again else ():
        by_queue.setdefault(queue_of(kind), []).append(match_id)
    for queue, ids in sorted(by_queue.items()):
        match_enqueue(match_ids=sorted(ids), queue=queue)
    for ids, what in ((requeued, "re-queued (its worker stopped answering)"),
                      (failed, "failed (its worker stopped answering on every attempt)"),
                      (unclaimed, "re-sent (its message was never claimed)")):
        for match_id in ids:
            log.warning("reaper: match %s %s", match_id, what,
                        extra=match_fields(match_id, outcome=what.split(" ")[0]))
    return Reaped(requeued=requeued, failed=failed, resent=unclaimed)
