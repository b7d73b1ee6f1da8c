"""Reads of a person's notification settings and delivery log."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from league.notifications.events import DEFAULTS
from league.notifications.models import Attempt, EventKind, Notice, Preference, Webhook

LOG_LENGTH = 50
"""Notices the settings page lists (the API pages through all)."""


@dataclass(frozen=True)
class Choice:
    event: str
    label: str
    email: bool
    webhook: bool


def preferences_of(user: AbstractBaseUser) -> list[Choice]:
    rows = {p.event: p for p in Preference.objects.filter(user=user)}
    return [Choice(kind.value, kind.label,
                   rows[kind].email if kind in rows else DEFAULTS["email"],
                   rows[kind].webhook if kind in rows else DEFAULTS["webhook"])
            for kind in EventKind]


def webhook_of(user: AbstractBaseUser) -> Webhook | None:
    return Webhook.objects.filter(user=user).first()


def notices_of(user: AbstractBaseUser) -> QuerySet[Notice]:
    """The person's notices, newest first, each with its webhook attempts."""
    return Notice.objects.filter(user=user).prefetch_related("attempts")


def attempts_of(notice: Notice) -> list[Attempt]:
    return sorted(notice.attempts.all(), key=lambda a: a.number)
