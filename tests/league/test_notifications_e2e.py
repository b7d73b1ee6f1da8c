"""Notifications end to end (issue 37): real Celery workers on the notify queue, a real SMTP
server (aiosmtpd) and a real HTTP receiver, both on 127.0.0.1, the only address any test
talks to (``LEAGUE_WEBHOOK_ALLOWED_ADDRESSES`` lets the league reach it there).

Every notification arrives once and signed; a receiver that fails gets its retries, then a
logged failure; a worker killed mid-delivery loses nothing; a bot that keeps crashing is
disabled and its owner mailed."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from league.accounts.models import Profile
from league.bots.models import Bot, VersionStatus
from league.bots.services import version_create
from league.ladders.models import Ladder, Match, MatchKind
from league.ladders.services import match_create
from league.notifications import services, signing
from league.notifications.events import notify
from league.notifications.models import Attempt, EventKind, Notice, State
from league.notifications.sweep import notices_sweep
from tests.league import bots
from tests.league.conftest import Worker, upload, wait_for, wait_validated
from tests.league.receivers import Mailbox, Receiver, http_receiver, smtp_server

pytestmark = pytest.mark.slow

QUEUES = "celery,ticks,notify"


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    with smtp_server() as box:
        yield box


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with http_receiver() as got:
        yield got


@pytest.fixture
def carol(transactional_db: None, settings: Any) -> User:
    settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1/32"]  # this process saves hooks
    user = User.objects.create_user("carol", email="carol@example.org")
    Profile.objects.create(user=user, verified_email="carol@example.org")
    return user


def league_worker(start_worker: Callable[..., Worker], mailbox: Mailbox,
                  **env: str) -> Worker:
    return start_worker(queues=QUEUES, env={
        "LEAGUE_WEBHOOK_ALLOWED_ADDRESSES": "127.0.0.1/32", "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(mailbox.port), "EMAIL_USE_TLS": "false",
        "LEAGUE_WEBHOOK_BACKOFF_SECONDS": "0.3", "LEAGUE_SITE_URL": "https://league.test",
        **env})


def test_validation_is_told_once_by_mail_and_signed_webhook(
        ladders: dict[str, Ladder], carol: User, mailbox: Mailbox, receiver: Receiver,
        start_worker: Callable[..., Worker]) -> None:
    began = time.monotonic()
    _, secret = services.webhook_set(user=carol, url=receiver.url)
    assert secret
    worker = league_worker(start_worker, mailbox)
    good = upload(carol, "stones", "steady", bots.RANDOM)
    wait_validated(good, worker=worker)
    bad = upload(carol, "stones", "steady", bots.CRASH)
    wait_validated(bad, worker=worker)
    assert (good.status, bad.status) == ("active", "rejected")
    wait_for(lambda: len(receiver.got()) >= 2 and len(mailbox.got()) >= 2, 30,
             "two webhooks and two mails", worker.text)
    time.sleep(2)  # anything doubled would arrive by now
    hooks, mails = receiver.got(), mailbox.got()
    assert len(hooks) == 2 and len(mails) == 2
    bodies = []
    for got in hooks:
        assert signing.verify(secret, got.headers, got.body, int(time.time()))
        bodies.append(json.loads(got.body))
        assert got.headers["Botleague-Event-Id"] == bodies[-1]["id"]
    assert [b["type"] for b in bodies] == ["version.validated", "version.rejected"]
    rejected = bodies[1]
    assert rejected["data"]["reason"].startswith("crash: exited with code 3")
    assert rejected["data"]["link"] == f"https://league.test/versions/{bad.pk}/"
    mailed = mails[1].get_payload(decode=True).decode()
    for text in (json.dumps(rejected), mailed):
        assert "oh no" not in text  # the bot's log is its owner's page's, never told
        assert "/tmp" not in text
    assert [m["To"] for m in mails] == ["carol@example.org"] * 2
    assert "steady v2 was rejected" in mails[1]["Subject"]
    assert "crash: exited with code 3" in mailed
    assert f"https://league.test/versions/{bad.pk}/" in mailed
    assert set(Notice.objects.values_list("webhook_state", "email_state")) == {
        (State.SENT, State.SENT)}
    assert Attempt.objects.filter(ok=True, status_code=200).count() == 2
    print(f"validation told end to end in {time.monotonic() - began:.1f} s")


def test_a_failing_receiver_gets_its_retries_then_a_logged_failure(
        transactional_db: None, carol: User, mailbox: Mailbox,
        start_worker: Callable[..., Worker]) -> None:
    with http_receiver(status=500) as failing:
        services.webhook_set(user=carol, url=failing.url)
        services.preferences_set(user=carol, choices={"bot.disabled": {"email": False}})
        worker = league_worker(start_worker, mailbox, LEAGUE_WEBHOOK_ATTEMPTS="3")
        with transaction.atomic():
            notice = notify(user_id=carol.pk, kind=EventKind.BOT_DISABLED, about="1",
                            title="steady was disabled", text="x", data={"bot": {"id": 1}})
        assert notice is not None
        wait_for(lambda: Notice.objects.get(pk=notice.pk).webhook_state == State.FAILED, 30,
                 "the delivery to fail for good", worker.text)
        time.sleep(1.5)  # no fourth try comes
        got = failing.got()
    assert len(got) == 3
    assert {d.headers["Botleague-Event-Id"] for d in got} == {notice.public_id}
    assert len({d.body for d in got}) == 1  # the same body, signed anew each time
    attempts = list(Attempt.objects.filter(notice=notice).order_by("number"))
    assert [a.number for a in attempts] == [1, 2, 3]
    assert all(a.status_code == 500 and a.error == "answered 500" for a in attempts)
    gaps = [(b.at - a.at).total_seconds() for a, b in pairwise(attempts)]
    assert gaps[0] >= 0.3 and gaps[1] >= 0.6, gaps  # backing off
    assert mailbox.got() == []  # e-mail was switched off for this event


def test_a_bot_that_keeps_crashing_is_disabled_and_its_owner_mailed(
        ladders: dict[str, Ladder], carol: User, mailbox: Mailbox,
        start_worker: Callable[..., Worker]) -> None:
    version = version_create(owner=carol, game="stones", name="wobbly", filename="main.py",
                             data=bots.CRASH.encode())
    # as if it had passed validation: it crashes in every game from now on
    Match.objects.all().delete()
    version.status = VersionStatus.ACTIVE
    version.save()
    Bot.objects.filter(pk=version.bot_id).update(active_version=version)
    worker = league_worker(start_worker, mailbox, LEAGUE_CRASH_STREAK_DISABLE="3")
    with transaction.atomic():
        for seed in range(3):
            match_create(ladder=ladders["stones"], kind=MatchKind.CHALLENGE, seed=seed,
                         seats=[version, "random"])
    wait_for(lambda: Bot.objects.get(pk=version.bot_id).disabled, 60, "the bot disabled",
             worker.text)
    bot = Bot.objects.get(pk=version.bot_id)
    assert bot.disabled_reason.startswith("it crashed 3 games in a row")
    wait_for(lambda: len(mailbox.got()) >= 1, 30, "the owner's mail", worker.text)
    time.sleep(1)
    (message,) = mailbox.got()
    assert message["To"] == "carol@example.org"
    assert message["Subject"] == "wobbly was disabled"
    assert "crashed 3 games in a row" in message.get_payload(decode=True).decode()
    assert all(p.forfeit == "crash" for m in Match.objects.all()
               for p in m.participants.filter(version=version))


def test_a_worker_killed_mid_delivery_loses_no_notice(
        transactional_db: None, carol: User, mailbox: Mailbox, receiver: Receiver,
        start_worker: Callable[..., Worker], settings: Any) -> None:
    """The receiver holds the first delivery open; its worker is SIGKILLed while it waits.
    The sweep (as the beat runs it) logs that try as cut off and sends the notice again; a
    new worker delivers it, with the same event id."""
    services.webhook_set(user=carol, url=receiver.url)
    services.preferences_set(user=carol, choices={"bot.disabled": {"email": False}})
    receiver.delay = 60.0
    first = league_worker(start_worker, mailbox, LEAGUE_WEBHOOK_TIMEOUT="90")
    with transaction.atomic():
        notice = notify(user_id=carol.pk, kind=EventKind.BOT_DISABLED, about="killed",
                        title="steady was disabled", text="x", data={"bot": {"id": 1}})
    assert notice is not None
    wait_for(lambda: len(receiver.got()) == 1, 30, "the first delivery to arrive", first.text)
    assert Notice.objects.get(pk=notice.pk).webhook_state == State.SENDING
    first.kill()
    receiver.delay = 0.0
    second = league_worker(start_worker, mailbox)
    assert notices_sweep() == {"resent": 0, "cut_off": 0}  # within its lease (300 s)
    settings.LEAGUE_NOTIFY_LEASE_SECONDS = 1.0
    time.sleep(1.2)
    assert notices_sweep() == {"resent": 1, "cut_off": 1}
    wait_for(lambda: Notice.objects.get(pk=notice.pk).webhook_state == State.SENT, 30,
             "the notice delivered again", second.text)
    time.sleep(1)
    got = receiver.got()
    assert [d.headers["Botleague-Event-Id"] for d in got] == [notice.public_id] * 2
    attempts = list(Attempt.objects.filter(notice=notice).order_by("number"))
    assert [(a.number, a.ok) for a in attempts] == [(1, False), (2, True)]
    assert attempts[0].error.startswith("cut off")
    assert notices_sweep() == {"resent": 0, "cut_off": 0}
