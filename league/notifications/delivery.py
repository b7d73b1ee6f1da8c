"""Delivering one notice by one channel, once: each step claims the notice's state with a
conditional update first, so a task Celery delivers twice (it acknowledges late) finds the
work taken and does nothing.

E-mail goes through Django's mail framework (SMTP in production, files under
``BOTLEAGUE_DATA/mail`` with ``./dev up``), only ever to the address the person had confirmed
when the event happened. A webhook is posted by ``targets.post`` (checked, pinned, no
redirect, a short timeout) and signed (``signing``); each try is an ``Attempt`` row, and a
failed one is tried again after ``LEAGUE_WEBHOOK_BACKOFF_SECONDS`` × 2^(try - 1), up to
``LEAGUE_WEBHOOK_ATTEMPTS`` tries in all."""

from __future__ import annotations

import logging
import smtplib
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone

from league.notifications import signing, targets
from league.notifications.models import Attempt, Notice, State, Webhook

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Next:
    """What the task does next: nothing (``after`` None), or try again after ``after`` s."""

    after: float | None = None


def email_send(notice_id: int, attempt: int = 0) -> Next:
    """Try a notice's mail once more (its tries are counted on its row: ``attempt`` is the
    task's, for the log only)."""
    if not Notice.objects.filter(pk=notice_id, email_state=State.PENDING).update(
            email_state=State.SENDING, email_attempts=F("email_attempts") + 1,
            email_due=timezone.now()):
        return Next()  # sent, failed for good, or in another task's hands
    notice = Notice.objects.get(pk=notice_id)
    context = {"notice": notice, "settings_link": settings.LEAGUE_SITE_URL.rstrip("/")
               + "/account/notifications/"}
    body = render_to_string("notifications/mail/notice.txt", context)
    try:
        send_mail(" ".join(notice.title.split()), body, None, [notice.email_to])
    except (OSError, smtplib.SMTPException) as error:
        tries = notice.email_attempts
        again = retry_after(tries, settings.LEAGUE_EMAIL_ATTEMPTS)
        Notice.objects.filter(pk=notice_id, email_state=State.SENDING).update(
            email_state=State.FAILED if again is None else State.PENDING,
            email_due=due(again), email_error=f"{type(error).__name__}: {error}"[:300])
        log.warning("notice %s: mail try %s failed: %s", notice_id, tries, error)
        return Next(again)
    Notice.objects.filter(pk=notice_id).update(email_state=State.SENT, email_error="",
                                               email_due=None)
    return Next()


def retry_after(tries: int, most: int) -> float | None:
    """Seconds until the next try after ``tries`` failed ones, None when that was the last:
    ``LEAGUE_WEBHOOK_BACKOFF_SECONDS`` doubled at each further try (mail and webhook)."""
    if tries >= most:
        return None
    return settings.LEAGUE_WEBHOOK_BACKOFF_SECONDS * 2 ** (tries - 1)


def due(after: float | None) -> datetime | None:
    return None if after is None else timezone.now() + timedelta(seconds=after)


def payload(notice: Notice) -> dict[str, object]:
    return {"id": notice.public_id, "type": notice.kind,
            "created": notice.created_at.isoformat(), "title": notice.title,
            "text": notice.text, "data": notice.data}


def webhook_send(notice_id: int, attempt: int) -> Next:
    """Try ``attempt`` (1, 2, …) of a notice's webhook delivery."""
    if not Notice.objects.filter(pk=notice_id, webhook_state=State.PENDING,
                                 webhook_attempts=attempt - 1).update(
            webhook_state=State.SENDING, webhook_attempts=F("webhook_attempts") + 1,
            webhook_due=timezone.now()):
        return Next()
    notice = Notice.objects.get(pk=notice_id)
    hook = Webhook.objects.filter(user_id=notice.user_id).first()
    if hook is None:  # removed since: nobody to deliver to
        Notice.objects.filter(pk=notice_id).update(webhook_state=State.OFF, webhook_due=None)
        return Next()
    body = signing.body_of(payload(notice))
    now = int(time.time())
    headers = signing.headers(secret=hook.secret, event_id=notice.public_id,
                              kind=notice.kind, timestamp=now, body=body)
    row = Attempt(notice=notice, number=attempt, url=hook.url, at=timezone.now())
    try:
        answer = targets.post(hook.url, body, headers)
    except targets.TargetError as error:
        row.error = str(error)[:300]
        retry = False  # the address will not become public by waiting
    except OSError as error:
        row.error = _in_words(error)
        retry = True
    else:
        row.status_code, row.ms, row.response = answer.status, answer.ms, answer.body
        row.ok = 200 <= answer.status < 300
        if not row.ok:
            row.error = (f"answered {answer.status} (redirects are not followed)"
                         if 300 <= answer.status < 400 else f"answered {answer.status}")
        retry = not row.ok
    # a try the sweep already logged as cut off (this worker was taken for dead) is
    # corrected by what really happened
    Attempt.objects.update_or_create(notice=notice, number=attempt, defaults={
        field: getattr(row, field) for field in ("url", "at", "ms", "status_code", "ok",
                                                 "error", "response")})
    again = retry_after(attempt, settings.LEAGUE_WEBHOOK_ATTEMPTS) if retry else None
    state = State.SENT if row.ok else (State.FAILED if again is None else State.PENDING)
    Notice.objects.filter(pk=notice_id, webhook_state=State.SENDING).update(
        webhook_state=state, webhook_due=due(again))
    return Next(again)


def _in_words(error: OSError) -> str:
    if isinstance(error, TimeoutError):
        said = str(error)
        return said if said.startswith("no ") else (
            f"no answer within {settings.LEAGUE_WEBHOOK_TIMEOUT:g} s")
    if isinstance(error, ConnectionRefusedError):
        return "the connection was refused"
    if isinstance(error, ConnectionResetError):
        return "the connection was reset"
    if isinstance(error, OSError) and type(error).__name__ == "SSLCertVerificationError":
        return f"its TLS certificate was not accepted: {error}"[:300]
    return f"{type(error).__name__}: {error}"[:300]
