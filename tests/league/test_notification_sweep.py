"""The sweep (``league.notifications.sweep``) on the test database, the broker replaced by a
list of the tasks it was given: a notice whose task the broker refused is sent again once its
grace is over, and only once however often the sweep runs; a channel a dead worker left
``sending`` is logged as cut off and tried again, or failed when its tries are spent. The
same with real workers and a real SIGKILL: test_notifications_e2e.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from league.accounts.models import Profile
from league.notifications import events, services, sweep
from league.notifications.events import EMAIL_TASK, WEBHOOK_TASK, notify
from league.notifications.models import Attempt, EventKind, Notice, State
from tests.league.conftest import People


class Broker:
    def __init__(self) -> None:
        self.sent: list[tuple[str, tuple[Any, ...]]] = []
        self.down = False

    def send_task(self, name: str, args: tuple[Any, ...]) -> None:
        if self.down:
            raise ConnectionError("the broker is down")
        self.sent.append((name, tuple(args)))


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    fake = Broker()
    monkeypatch.setattr(events.celery_app, "send_task", fake.send_task)
    monkeypatch.setattr(sweep.celery_app, "send_task", fake.send_task)
    return fake


@pytest.fixture
def notice(people: People, settings: Any, broker: Broker,
           django_capture_on_commit_callbacks: Any) -> Notice:
    settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1/32"]
    people.alice.email = "alice@example.org"
    people.alice.save()
    Profile.objects.create(user=people.alice, verified_email="alice@example.org")
    services.webhook_set(user=people.alice, url="http://127.0.0.1:9/hook")
    broker.down = True  # the event commits; its tasks are refused
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        told = notify(user_id=people.alice.pk, kind=EventKind.BOT_DISABLED, about="1",
                      title="steady was disabled", text="x", data={})
    broker.down = False
    assert told is not None and broker.sent == []
    return told


def age(notice: Notice, seconds: float, **states: str) -> None:
    then = timezone.now() - timedelta(seconds=seconds)
    Notice.objects.filter(pk=notice.pk).update(email_due=then, webhook_due=then, **states)


def test_a_notice_whose_tasks_the_broker_refused_is_sent_after_its_grace(
        notice: Notice, broker: Broker) -> None:
    assert sweep.notices_sweep() == {"resent": 0, "cut_off": 0}  # within its grace
    age(notice, 61)
    assert sweep.notices_sweep() == {"resent": 2, "cut_off": 0}
    assert sorted(broker.sent) == [(EMAIL_TASK, (notice.pk, 1)), (WEBHOOK_TASK, (notice.pk, 1))]
    assert sweep.notices_sweep() == {"resent": 0, "cut_off": 0}  # one grace again first
    assert len(broker.sent) == 2


def test_a_broker_still_down_leaves_it_to_the_next_sweep(notice: Notice,
                                                         broker: Broker) -> None:
    age(notice, 61)
    broker.down = True
    assert sweep.notices_sweep() == {"resent": 0, "cut_off": 0}
    broker.down = False
    age(notice, 61)
    assert sweep.notices_sweep()["resent"] == 2


def test_a_channel_left_sending_is_cut_off_and_tried_again(
        notice: Notice, broker: Broker) -> None:
    age(notice, 301, email_state=State.SENDING, email_attempts=1,
        webhook_state=State.SENDING, webhook_attempts=1)
    assert sweep.notices_sweep() == {"resent": 2, "cut_off": 2}
    assert sorted(broker.sent) == [(EMAIL_TASK, (notice.pk, 2)), (WEBHOOK_TASK, (notice.pk, 2))]
    row = Notice.objects.get(pk=notice.pk)
    assert (row.email_state, row.webhook_state) == (State.PENDING, State.PENDING)
    assert row.email_error.startswith("cut off")
    (attempt,) = Attempt.objects.filter(notice=notice)
    assert (attempt.number, attempt.ok, attempt.url) == (1, False, "http://127.0.0.1:9/hook")
    assert attempt.error.startswith("cut off")


def test_a_channel_cut_off_on_its_last_try_fails(notice: Notice, broker: Broker,
                                                settings: Any) -> None:
    age(notice, 301, email_state=State.SENDING, email_attempts=settings.LEAGUE_EMAIL_ATTEMPTS,
        webhook_state=State.SENDING, webhook_attempts=settings.LEAGUE_WEBHOOK_ATTEMPTS)
    assert sweep.notices_sweep() == {"resent": 0, "cut_off": 2}
    row = Notice.objects.get(pk=notice.pk)
    assert (row.email_state, row.webhook_state) == (State.FAILED, State.FAILED)
    assert broker.sent == []


def test_finished_notices_are_not_looked_at(notice: Notice, broker: Broker) -> None:
    age(notice, 10_000, email_state=State.SENT, webhook_state=State.FAILED)
    assert sweep.notices_sweep() == {"resent": 0, "cut_off": 0}
