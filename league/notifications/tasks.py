"""Celery adapters on the notifications' own queue (``LEAGUE_NOTIFY_QUEUE``, its own worker
process): a slow mail server or webhook never holds a match's slot or a tick."""

from __future__ import annotations

from celery import shared_task

from league.notifications.delivery import email_send, webhook_send
from league.notifications.events import EMAIL_TASK, WEBHOOK_TASK
from league.notifications.sweep import SWEEP_TASK, notices_sweep


@shared_task(name=EMAIL_TASK)
def email_task(notice_id: int, attempt: int = 1) -> None:
    again = email_send(notice_id, attempt).after
    if again is not None:
        email_task.apply_async((notice_id, attempt + 1), countdown=again)


@shared_task(name=WEBHOOK_TASK)
def webhook_task(notice_id: int, attempt: int = 1) -> None:
    again = webhook_send(notice_id, attempt).after
    if again is not None:
        webhook_task.apply_async((notice_id, attempt + 1), countdown=again)


@shared_task(name=SWEEP_TASK)
def sweep_task() -> dict[str, int]:
    return notices_sweep()
