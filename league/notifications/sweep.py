"""The sweep: no notice is lost to a lost task or a dead worker.

A notice's channels are delivered by Celery tasks sent after the event commits. Two things
can leave a channel undelivered for ever: the task never reached a worker (the broker
refused the message, a worker took it and died before starting), or a worker died in the
middle of a delivery, leaving the channel ``sending``. Each channel's ``due`` says when its
task should have run (pending) or when a task took it (sending), so the beat's sweep finds
both with an index over unfinished rows only, however many notices are kept:

- pending longer than ``LEAGUE_NOTIFY_GRACE_SECONDS`` past due: its task is sent again;
- sending longer than ``LEAGUE_NOTIFY_LEASE_SECONDS``: the try is logged as cut off and,
  if tries are left, made again.

Each step claims its row with a conditional update first, so two sweeps (or a sweep and a
late task) never send one notice twice from the same state. A delivery cut off after the
receiver had it may reach the receiver twice, with the same event id (at least once, as
every webhook sender promises; ``docs/notifications.md`` says how to drop a repeat).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from league.celery import app as celery_app
from league.notifications.delivery import retry_after
from league.notifications.events import EMAIL_TASK, WEBHOOK_TASK
from league.notifications.models import Attempt, Notice, State

log = logging.getLogger(__name__)

SWEEP_TASK = "league.notifications.tasks.sweep_task"
BATCH = 200
"""Rows a sweep takes per channel and state: a backlog is worked off over a few sweeps,
never in one long transaction."""
CUT_OFF = "cut off: the worker delivering it stopped before it finished"


def notices_sweep() -> dict[str, int]:
    """One sweep; how many channels it sent again and how many tries it found cut off."""
    counts = {"resent": 0, "cut_off": 0}
    for channel, task in (("email", EMAIL_TASK), ("webhook", WEBHOOK_TASK)):
        cut, resent = _cut_off(channel, task)
        counts["cut_off"] += cut
        counts["resent"] += resent + _resend(channel, task)
    if any(counts.values()):
        log.warning("notifications sweep: %s", counts)
    return counts


def _cut_off(channel: str, task: str) -> tuple[int, int]:
    """Channels left ``sending`` by a dead worker: back to pending and sent again (or
    failed, out of tries); how many were found and how many sent."""
    now = timezone.now()
    dead = now - timedelta(seconds=settings.LEAGUE_NOTIFY_LEASE_SECONDS)
    state, when, tries = f"{channel}_state", f"{channel}_due", f"{channel}_attempts"
    most = (settings.LEAGUE_EMAIL_ATTEMPTS if channel == "email"
            else settings.LEAGUE_WEBHOOK_ATTEMPTS)
    found = sent = 0
    for pk, made in Notice.objects.filter(**{state: State.SENDING, f"{when}__lt": dead}
                                          ).values_list("pk", tries)[:BATCH]:
        out_of_tries = retry_after(made, most) is None
        changes = {state: State.FAILED if out_of_tries else State.PENDING,
                   when: None if out_of_tries else now}
        if channel == "email":
            changes["email_error"] = CUT_OFF
        if not Notice.objects.filter(**{"pk": pk, state: State.SENDING, tries: made,
                                        f"{when}__lt": dead}).update(**changes):
            continue  # finished (or taken) meanwhile
        found += 1
        if channel == "webhook":
            url = Notice.objects.filter(pk=pk).values_list("user__webhook__url",
                                                           flat=True).first() or ""
            Attempt.objects.get_or_create(notice_id=pk, number=made, defaults={
                "url": url, "at": now, "error": CUT_OFF})
        if not out_of_tries:
            sent += _send(pk, channel, task, made + 1)
    return found, sent


def _resend(channel: str, task: str) -> int:
    now = timezone.now()
    lost = now - timedelta(seconds=settings.LEAGUE_NOTIFY_GRACE_SECONDS)
    state, when, tries = f"{channel}_state", f"{channel}_due", f"{channel}_attempts"
    sent = 0
    for pk, made in Notice.objects.filter(**{state: State.PENDING, f"{when}__lt": lost}
                                          ).values_list("pk", tries)[:BATCH]:
        # claimed by moving its due to now: the next sweep leaves it a grace again
        if Notice.objects.filter(**{"pk": pk, state: State.PENDING, tries: made,
                                    f"{when}__lt": lost}).update(**{when: now}):
            sent += _send(pk, channel, task, made + 1)
    return sent


def _send(pk: int, channel: str, task: str, attempt: int) -> int:
    """1 when the task was sent; a broker that refuses it leaves the notice to the next
    sweep (its due was moved to now: one grace later)."""
    try:
        celery_app.send_task(task, (pk, attempt))
    except Exception:
        log.exception("notice %s: its %s task could not be sent; the next sweep will",
                      pk, channel)
        return 0
    return 1

