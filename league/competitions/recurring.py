"""Tournaments that come back on their own: every day at 18:00 UTC, every Friday, every
fifteen minutes (the demo's Swiss).

A ``Recurrence`` holds only the schedule; each edition is an ordinary tournament, a copy of
the one before (format, field, entry conditions, description) with a new seed, its start
``every`` after the one before's. The next edition is made, and listed with its start, as soon
as the one before has started, so there is always one to enter; starts missed while the
league was down are skipped, never played late. Editions may overlap when one runs longer
than ``every``: each is a tournament of its own.

Made by the beat's competitions tick (``progress.competitions_tick``); the recurrence's row is
locked while an edition is made, so two ticks at once make one."""

from __future__ import annotations

import logging
import math
import secrets
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from league.bots.selectors import user_or_staff
from league.competitions.errors import CompetitionError
from league.competitions.models import UPCOMING, Recurrence, Tournament, TournamentState
from league.ladders.models import Ladder

log = logging.getLogger(__name__)

STAFF_MIN_EVERY = timedelta(minutes=10)
MAX_EVERY = timedelta(days=60)
EVERY_CHOICES = {"hour": timedelta(hours=1), "day": timedelta(days=1),
                 "week": timedelta(days=7)}
"""What the form and the API offer by name (the API also takes seconds)."""
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class RecurrenceError(CompetitionError):
    """A schedule refused; the message says what to change."""


def min_every(user: AbstractBaseUser) -> timedelta:
    return (STAFF_MIN_EVERY if user.is_staff
            else timedelta(seconds=settings.LEAGUE_RECURRING_MIN_EVERY))


def recurrence_check(*, user: AbstractBaseUser, every: timedelta) -> None:
    """Refuses a schedule ``user`` may not start (before anything is written)."""
    least = min_every(user)
    if not least <= every <= MAX_EVERY:
        raise RecurrenceError(f"a tournament comes back every {duration_words(least)} to "
                              f"{duration_words(MAX_EVERY)}, not every {duration_words(every)}")
    if not user.is_staff:
        going = Recurrence.objects.filter(created_by_id=user.pk, active=True).count()
        if going >= settings.LEAGUE_RECURRING_PER_USER:
            raise RecurrenceError(
                f"you have {going} tournaments that come back; at most "
                f"{settings.LEAGUE_RECURRING_PER_USER} at once (stop one first)")


def recurrence_start(*, user: AbstractBaseUser, first: Tournament,
                     every: timedelta) -> Recurrence:
    """Make ``first`` (just made, upcoming) come back ``every`` after each edition. Each
    edition's registration opens as soon as it is listed (when the one before starts) and
    closes as long before its start as ``first``'s does."""
    recurrence_check(user=user, every=every)
    recurrence = Recurrence.objects.create(
        every=every, created_by=user, opens_before=every,
        closes_before=first.starts_at - first.registration_closes)
    Tournament.objects.filter(pk=first.pk).update(recurrence=recurrence)
    first.recurrence = recurrence
    return recurrence


def recurrence_stop(*, user: AbstractBaseUser, recurrence: Recurrence) -> Recurrence:
    """Its creator or staff: no edition is made any more; the ones made stay (an upcoming
    one may be cancelled as any tournament)."""
    if not user_or_staff(user, recurrence.created_by_id):
        raise RecurrenceError("only its creator and staff can stop a tournament coming back")
    if not recurrence.active:
        raise RecurrenceError("it does not come back any more already")
    recurrence.active = False
    recurrence.stopped_at = timezone.now()
    recurrence.save(update_fields=["active", "stopped_at"])
    return recurrence


def next_start(recurrence: Recurrence, latest: Tournament, now: datetime) -> datetime:
    """The first start on the schedule after ``latest``'s whose entries still close in the
    future: starts missed (a league that was down) are skipped, not played late."""
    behind = (now + recurrence.closes_before - latest.starts_at) / recurrence.every
    return latest.starts_at + max(1, math.floor(behind) + 1) * recurrence.every


def recurrences_tick(now: datetime | None = None) -> int:
    """Make the next edition of every recurrence whose latest has started; how many made."""
    now = now or timezone.now()
    made = 0
    for pk in Recurrence.objects.filter(active=True).values_list("pk", flat=True):
        with transaction.atomic():
            recurrence = Recurrence.objects.select_for_update().filter(
                pk=pk, active=True).first()
            latest = (recurrence.editions.order_by("-starts_at", "-pk").first()
                      if recurrence else None)
            if recurrence is None or latest is None or latest.state in UPCOMING:
                continue
            if _edition_make(recurrence, latest, now) is not None:
                made += 1
    return made


def _edition_make(recurrence: Recurrence, latest: Tournament,
                  now: datetime) -> Tournament | None:
    ladder = Ladder.objects.filter(game=latest.game, active=True).first()
    if ladder is None:  # tried again at the next tick; the page says nothing new is listed
        log.warning("recurrence %s: %s has no open ladder; no edition made", recurrence.pk,
                    latest.game)
        return None
    starts = next_start(recurrence, latest, now)
    opens = max(now, starts - recurrence.opens_before)
    return Tournament.objects.create(
        name=latest.name, game=latest.game, ladder=ladder, format=latest.format,
        games=latest.games, rounds=latest.rounds, third_place=latest.third_place,
        bracket_reset=latest.bracket_reset, options=latest.options, limits=latest.limits,
        seed=secrets.randbelow(2**31), field_limit=latest.field_limit,
        registration_opens=opens, registration_closes=starts - recurrence.closes_before,
        starts_at=starts,
        state=TournamentState.REGISTRATION if opens <= now else TournamentState.DRAFT,
        official=latest.official, open_to_league_bots=latest.open_to_league_bots,
        description=latest.description, created_by_id=latest.created_by_id,
        recurrence=recurrence, min_rated_games=latest.min_rated_games,
        rating_min=latest.rating_min, rating_max=latest.rating_max,
        allowed_owners=latest.allowed_owners)


def duration_words(every: timedelta) -> str:
    seconds = int(every.total_seconds())
    for unit, size in (("week", 7 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0 and seconds >= size:
            n = seconds // size
            return unit if n == 1 else f"{n} {unit}s"
    return f"{seconds} seconds"


def schedule_words(recurrence: Recurrence, start: datetime) -> str:
    """"every day at 18:00 UTC", "every Friday at 18:00 UTC", "every 15 minutes"."""
    every = recurrence.every
    at = start.astimezone(UTC)
    if every == timedelta(days=7):
        return f"every {WEEKDAYS[at.weekday()]} at {at:%H:%M} UTC"
    if every >= timedelta(days=1) and every % timedelta(days=1) == timedelta(0):
        return f"every {duration_words(every)} at {at:%H:%M} UTC"
    return f"every {duration_words(every)}"
