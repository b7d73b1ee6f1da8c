"""Telling people what happened: the one entry the apps that make events call.

``notify`` runs in the caller's transaction (a version judged, a tournament finished, a bot
disabled): it writes the notice with the channels its person chose, and sends the Celery
tasks that deliver it once that transaction commits, so nothing is told that did not happen
and no request or match waits for a mail server or a webhook. The caller gives the words
(public ones only: reasons and details already through ``league.redaction``, never a log or
source); this module knows nothing of bots or matches.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from league.accounts.mail import is_verified
from league.celery import app as celery_app
from league.notifications.models import EventKind, Notice, Preference, State, Webhook

log = logging.getLogger(__name__)

EMAIL_TASK = "league.notifications.tasks.email_task"
WEBHOOK_TASK = "league.notifications.tasks.webhook_task"
"""Named, not imported: the tasks module imports the mail and HTTP machinery."""

KEEP = 200
"""Notices (with their delivery logs) kept per person."""

DEFAULTS = {"email": True, "webhook": True}
"""Channels of an event kind a person never chose for: all on (a webhook only once they
have one, an e-mail only to a confirmed address)."""


def channels(user_id: int, kind: str) -> dict[str, bool]:
    row = Preference.objects.filter(user_id=user_id, event=kind).values("email",
                                                                        "webhook").first()
    return row or dict(DEFAULTS)


def site_link(path: str) -> str:
    return settings.LEAGUE_SITE_URL.rstrip("/") + path


def notify(*, user_id: int, kind: EventKind, about: str, title: str, text: str,
           data: dict[str, Any]) -> Notice | None:
    """Tell ``user_id`` of an event of ``kind`` about ``about`` (an id that makes it one
    event: told twice, it is one notice). ``title`` is the mail's subject, ``text`` its
    body; ``data`` goes in the webhook's JSON. None when they want neither channel.

    Never raises: it runs inside the transactions that write a match's result or a
    tournament's end, which must not be lost to a notice that could not be written (its
    own savepoint is rolled back, the caller's transaction goes on)."""
    try:
        with transaction.atomic():
            return _notify(user_id=user_id, kind=kind, about=about, title=title, text=text,
                           data=data)
    except Exception:
        log.exception("user %s was not told of %s %s", user_id, kind, about)
        return None


def _notify(*, user_id: int, kind: EventKind, about: str, title: str, text: str,
            data: dict[str, Any]) -> Notice | None:
    wanted = channels(user_id, kind)
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return None
    email = State.PENDING if wanted["email"] and is_verified(user) else State.OFF
    hook = (State.PENDING if wanted["webhook"] and Webhook.objects.filter(user=user).exists()
            else State.OFF)
    if email == State.OFF and hook == State.OFF:
        return None
    key = f"{kind}:{about}:{user_id}"[:120]
    now = timezone.now()
    try:
        with transaction.atomic():  # a savepoint: a notice told already is no error
            notice = Notice.objects.create(
                public_id=f"evt_{secrets.token_hex(12)}", key=key, user=user, kind=kind,
                title=title[:200], text=text, data=data, email_state=email,
                email_to=user.email if email == State.PENDING else "", webhook_state=hook,
                email_due=now if email == State.PENDING else None,
                webhook_due=now if hook == State.PENDING else None)
    except IntegrityError:
        return None  # told already
    # the log keeps a person's newest notices only (their attempts go with them)
    older = Notice.objects.filter(user=user).order_by("-created_at", "-pk").values_list(
        "pk", flat=True)[KEEP:KEEP + 50]
    Notice.objects.filter(pk__in=list(older)).delete()
    transaction.on_commit(lambda: _send(notice))
    return notice


def _send(notice: Notice) -> None:
    """The tasks, once the event is committed. A message lost here leaves the notice pending
    past its due, and the sweep (``sweep``) sends it again: late, never lost."""
    try:
        if notice.email_state == State.PENDING:
            celery_app.send_task(EMAIL_TASK, (notice.pk,))
        if notice.webhook_state == State.PENDING:
            celery_app.send_task(WEBHOOK_TASK, (notice.pk, 1))
    except Exception:
        log.exception("notice %s could not be queued now; the sweep will", notice.pk)
