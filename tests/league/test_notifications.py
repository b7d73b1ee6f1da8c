"""Notifications (issue 37, items 2 and 4) without workers: webhook targets refused before any
connection, the signature, the settings page and API, rate limits, and a notice told once.
The delivery steps run here in the test's process (``delivery``), against a real receiver
thread on 127.0.0.1; mail is Django's test backend. End to end through real workers and a
real SMTP server: ``test_notifications_e2e.py``."""

from __future__ import annotations

import ipaddress
import json
import socket
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db import transaction
from django.test import Client

from league.accounts.models import Profile
from league.notifications import delivery, services, signing, targets
from league.notifications.events import notify
from league.notifications.models import Attempt, EventKind, Notice, State, Webhook
from league.rate_limits import RateLimited
from tests.league.conftest import People
from tests.league.receivers import http_receiver

LOOPBACK = ["127.0.0.1/32"]


def confirmed(user: User) -> User:
    user.email = f"{user.username}@example.org"
    user.save()
    Profile.objects.update_or_create(user=user, defaults={"verified_email": user.email})
    return user


@pytest.fixture
def no_connection(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every connection ``targets`` would open, recorded and refused."""
    tried: list[Any] = []

    def connect(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        tried.append(address)
        raise AssertionError(f"a connection was made to {address}")

    monkeypatch.setattr(targets, "_connect", connect)
    return tried


# -- targets ----------------------------------------------------------------------------------

@pytest.mark.parametrize("address", [
    "127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
    "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "0.0.0.0", "::",
    "224.0.0.1", "ff02::1", "240.0.0.1", "100.64.0.1", "255.255.255.255"])
def test_addresses_that_are_not_public_are_refused(address: str) -> None:
    assert targets.refusal(ipaddress.ip_address(address)), address


@pytest.mark.parametrize("address", ["93.184.216.34", "2606:2800:220:1::1", "1.1.1.1"])
def test_public_addresses_pass(address: str) -> None:
    assert targets.refusal(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:{port}/hook", "http://10.0.0.7/hook", "https://169.254.169.254/latest",
    "http://[::1]:{port}/hook", "http://localhost:{port}/hook",
    "http://[::ffff:127.0.0.1]:{port}/"])
def test_private_targets_are_refused_at_delivery_without_a_connection(
        url: str, no_connection: list[Any], settings: Any) -> None:
    settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = []
    with socket.socket() as listener:  # a real port there, to show nothing came to it
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        with pytest.raises(targets.TargetError, match=r"refused|cannot be resolved"):
            targets.post(url.format(port=listener.getsockname()[1]), b"{}", {})
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody connected
    assert no_connection == []


@pytest.mark.parametrize(("url", "why"), [
    ("ftp://example.org/", "https://"), ("https:///nohost", "no host"),
    ("https://user:pw@example.org/", "user name"), ("http://10.0.0.1/", "private"),
    ("http://127.0.0.1/", "loopback"), ("http://169.254.1.1/", "link-local"),
    ("http://[::1]/", "loopback"), ("https://" + "a" * 600, "over 500"),
    ("https://example.org/a b", "ASCII"), ("https://bücher.example/", "ASCII"),
    ("https://example.org/\r\nX-Evil: 1", "ASCII")])
def test_bad_webhook_addresses_are_refused_when_saved(url: str, why: str, people: People,
                                                      no_connection: list[Any]) -> None:
    with pytest.raises(targets.TargetError, match=why):
        services.webhook_set(user=people.alice, url=url)
    assert not Webhook.objects.exists() and no_connection == []


def test_a_name_that_resolves_elsewhere_at_delivery_is_refused_there(
        people: People, monkeypatch: pytest.MonkeyPatch, no_connection: list[Any],
        settings: Any) -> None:
    """DNS rebinding: public when saved, 127.0.0.1 a moment later; the delivery checks the
    address it would connect to, and never connects."""
    answers = iter(["93.184.216.34", "127.0.0.1"])

    def resolve(host: str, port: int, **kwargs: Any) -> list[Any]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (next(answers), port))]

    monkeypatch.setattr(targets, "_resolve", resolve)
    services.webhook_set(user=confirmed(people.alice), url="https://hooks.example.org/x")
    notice = notify(user_id=people.alice.pk, kind=EventKind.BOT_DISABLED, about="1",
                    title="t", text="x", data={})
    assert notice is not None
    assert delivery.webhook_send(notice.pk, 1).after is None  # not retried: it will not pass
    (attempt,) = Attempt.objects.all()
    assert "refused: hooks.example.org resolves to 127.0.0.1, a loopback address" in attempt.error
    assert attempt.status_code is None and not attempt.ok
    assert Notice.objects.get(pk=notice.pk).webhook_state == State.FAILED
    assert no_connection == []


def test_mails_and_webhooks_go_to_the_notify_queue(settings: Any) -> None:
    from league.celery import app
    from league.notifications.events import EMAIL_TASK, WEBHOOK_TASK

    for name in (EMAIL_TASK, WEBHOOK_TASK):
        assert app.amqp.router.route({}, name)["queue"].name == settings.LEAGUE_NOTIFY_QUEUE


# -- the signature ---------------------------------------------------------------------------

def test_the_signature_checks_out_and_a_changed_body_or_old_timestamp_does_not() -> None:
    secret, body, now = signing.new_secret(), b'{"a":1}', int(time.time())
    headers = signing.headers(secret=secret, event_id="evt_1", kind="bot.disabled",
                              timestamp=now, body=body)
    assert headers["Botleague-Signature"].startswith("v1=")
    assert signing.verify(secret, headers, body, now)
    assert not signing.verify(secret, headers, b'{"a":2}', now)
    assert not signing.verify("whsec_other", headers, body, now)
    assert not signing.verify(secret, headers, body, now + 301)


# -- delivering in this process against a real receiver ----------------------------------------

def test_a_webhook_is_signed_logged_and_its_answer_cut_short(people: People,
                                                             settings: Any) -> None:
    settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = LOOPBACK
    alice = confirmed(people.alice)
    with http_receiver() as receiver:
        _, secret = services.webhook_set(user=alice, url=receiver.url)
        assert secret and secret.startswith("whsec_")
        notice = notify(user_id=alice.pk, kind=EventKind.VERSION_REJECTED, about="7",
                        title="mybot v2 was rejected", text="crash: exited with code 3",
                        data={"reason": "crash: exited with code 3"})
        assert notice is not None
        delivery.webhook_send(notice.pk, 1)
        (got,) = receiver.got()
    assert signing.verify(secret, got.headers, got.body, int(time.time()))
    assert got.headers["Botleague-Event-Id"] == notice.public_id
    assert got.headers["Botleague-Event"] == "version.rejected"
    body = json.loads(got.body)
    assert body["id"] == notice.public_id and body["data"]["reason"].startswith("crash")
    (attempt,) = Attempt.objects.all()
    assert attempt.ok and attempt.status_code == 200 and len(attempt.response) == 200
    assert Notice.objects.get(pk=notice.pk).webhook_state == State.SENT
    # a task delivered twice sends nothing twice
    assert delivery.webhook_send(notice.pk, 1).after is None
    assert Attempt.objects.count() == 1


def test_a_redirect_is_not_followed_but_logged_and_retried(people: People,
                                                           settings: Any) -> None:
    settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = LOOPBACK
    with http_receiver(status=302) as receiver, http_receiver() as elsewhere:
        receiver.location = elsewhere.url
        services.webhook_set(user=people.alice, url=receiver.url)
        notice = notify(user_id=people.alice.pk, kind=EventKind.BOT_DISABLED, about="1",
                        title="t", text="x", data={})
        assert notice is not None
        assert delivery.webhook_send(notice.pk, 1).after == settings.LEAGUE_WEBHOOK_BACKOFF_SECONDS
        assert len(receiver.got()) == 1 and elsewhere.got() == []
    (attempt,) = Attempt.objects.all()
    assert attempt.status_code == 302 and "redirects are not followed" in attempt.error


@pytest.mark.parametrize(("delay", "drip", "error"), [
    (2.0, 0.0, "no answer within 0.5 s"),
    (0.0, 0.2, "no whole answer within 1 s")])
def test_a_slow_receiver_is_cut_off(people: People, settings: Any, delay: float, drip: float,
                                    error: str) -> None:
    settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = LOOPBACK
    settings.LEAGUE_WEBHOOK_TIMEOUT = 0.5
    with http_receiver() as receiver:
        receiver.delay, receiver.drip = delay, drip
        services.webhook_set(user=people.alice, url=receiver.url)
        notice = notify(user_id=people.alice.pk, kind=EventKind.BOT_DISABLED, about="1",
                        title="t", text="x", data={})
        assert notice is not None
        began = time.monotonic()
        assert delivery.webhook_send(notice.pk, 1).after is not None  # tried again later
        assert time.monotonic() - began < 1.8
    (attempt,) = Attempt.objects.all()
    assert attempt.error == error and not attempt.ok


def test_mail_goes_only_to_a_confirmed_address_and_once(people: People) -> None:
    people.bob.email = "bob@example.org"
    people.bob.save()  # not confirmed
    assert notify(user_id=people.bob.pk, kind=EventKind.BOT_DISABLED, about="1", title="t",
                  text="x", data={}) is None
    alice = confirmed(people.alice)
    notice = notify(user_id=alice.pk, kind=EventKind.BOT_DISABLED, about="1",
                    title="mybot was disabled", text="it crashed 5 games in a row", data={})
    assert notice is not None and notice.email_state == State.PENDING
    # the same event told again is the same notice
    assert notify(user_id=alice.pk, kind=EventKind.BOT_DISABLED, about="1", title="t",
                  text="x", data={}) is None
    delivery.email_send(notice.pk, 1)
    delivery.email_send(notice.pk, 1)
    (message,) = mail.outbox
    assert message.to == ["alice@example.org"] and message.subject == "mybot was disabled"
    assert "crashed 5 games in a row" in message.body
    assert "/account/notifications/" in message.body


def test_nothing_is_told_of_an_event_rolled_back(people: People,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[Any] = []
    monkeypatch.setattr("league.notifications.events.celery_app.send_task",
                        lambda *a, **k: sent.append(a))
    alice = confirmed(people.alice)
    with pytest.raises(RuntimeError), transaction.atomic():
        notify(user_id=alice.pk, kind=EventKind.BOT_DISABLED, about="9", title="t", text="x",
               data={})
        raise RuntimeError
    assert not Notice.objects.exists() and sent == []


def test_a_notice_that_cannot_be_written_leaves_the_callers_transaction_alone(
        people: People, monkeypatch: pytest.MonkeyPatch) -> None:
    alice = confirmed(people.alice)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise ValueError("a bug in the notifications")

    monkeypatch.setattr("league.notifications.events.is_verified", broken)
    with transaction.atomic():
        assert notify(user_id=alice.pk, kind=EventKind.BOT_DISABLED, about="1", title="t",
                      text="x", data={}) is None
        User.objects.filter(pk=alice.pk).update(first_name="still")
    assert User.objects.get(pk=alice.pk).first_name == "still"


def test_a_persons_newest_notices_are_kept(people: People, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    monkeypatch.setattr("league.notifications.events.KEEP", 3)
    alice = confirmed(people.alice)
    for n in range(5):
        notify(user_id=alice.pk, kind=EventKind.BOT_DISABLED, about=str(n), title=f"{n}",
               text="x", data={})
    assert sorted(Notice.objects.values_list("title", flat=True)) == ["2", "3", "4"]


def test_a_person_who_chose_no_channel_is_told_nothing(people: People) -> None:
    alice = confirmed(people.alice)
    services.preferences_set(user=alice, choices={"bot.disabled": {"email": False}})
    assert notify(user_id=alice.pk, kind=EventKind.BOT_DISABLED, about="1", title="t",
                  text="x", data={}) is None


# -- the page and the API ---------------------------------------------------------------------

def test_the_settings_page_saves_choices_and_shows_a_new_secret_once(
        people: People, settings: Any) -> None:
    settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = LOOPBACK
    client = Client()
    client.force_login(people.alice)
    assert b'href="/account/notifications/"' in client.get("/account/profile/").content
    page = client.get("/account/notifications/")
    assert page.status_code == 200 and b"Delivery log" in page.content
    response = client.post("/account/notifications/", {"bot_disabled__email": "on"},
                           follow=True)
    assert b"Notification settings saved" in response.content
    from league.notifications.selectors import preferences_of

    chosen = {c.event: (c.email, c.webhook) for c in preferences_of(people.alice)}
    assert chosen["bot.disabled"] == (True, False)
    assert chosen["version.rejected"] == (False, False)
    response = client.post("/account/notifications/webhook/",
                           {"url": "http://10.0.0.1/hook"})
    assert b"private address" in response.content and not Webhook.objects.exists()
    response = client.post("/account/notifications/webhook/",
                           {"url": "http://127.0.0.1:9/hook"})
    secret = Webhook.objects.get().secret
    assert secret.encode() in response.content
    assert response["Cache-Control"] == "no-store"
    page = client.get("/account/notifications/")
    assert secret.encode() not in page.content and secret[:10].encode() in page.content
    response = client.post("/account/notifications/webhook/secret/")
    assert Webhook.objects.get().secret != secret
    assert Webhook.objects.get().secret.encode() in response.content


def test_the_api_reads_and_changes_settings_and_lists_deliveries(
        people: People, settings: Any) -> None:
    settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = LOOPBACK
    client = Client()
    assert client.get("/api/notifications/").status_code in (401, 403)
    client.force_login(confirmed(people.alice))
    got = client.get("/api/notifications/").json()
    assert got["email_confirmed"] and got["webhook"] is None
    assert {e["event"] for e in got["events"]} == set(EventKind.values)
    changed = client.patch("/api/notifications/", {"events": [
        {"event": "version.validated", "email": False}]}, content_type="application/json")
    assert changed.status_code == 200, changed.content
    events = {e["event"]: e for e in changed.json()["events"]}
    assert events["version.validated"]["email"] is False
    assert events["version.validated"]["webhook"] is True
    refused = client.put("/api/notifications/webhook/", {"url": "http://[::1]/"},
                         content_type="application/json")
    assert refused.status_code == 400 and "loopback" in refused.json()["detail"]
    made = client.put("/api/notifications/webhook/", {"url": "http://127.0.0.1:9/h"},
                      content_type="application/json")
    assert made.status_code == 201 and made.json()["secret"].startswith("whsec_")
    again = client.put("/api/notifications/webhook/", {"url": "http://127.0.0.1:9/other"},
                       content_type="application/json")
    assert again.status_code == 200 and again.json()["secret"] is None
    assert client.get("/api/notifications/").json()["webhook"]["secret_hint"].endswith("…")
    renewed = client.post("/api/notifications/webhook/secret/").json()["secret"]
    assert Webhook.objects.get().secret == renewed
    notice = notify(user_id=people.alice.pk, kind=EventKind.BOT_DISABLED, about="3",
                    title="mybot was disabled", text="x", data={})
    assert notice is not None
    Attempt.objects.create(notice=notice, number=1, url="http://127.0.0.1:9/other",
                           at=notice.created_at, error="the connection was refused")
    listed = client.get("/api/notifications/deliveries/").json()
    (row,) = listed["results"]
    assert row["id"] == notice.public_id and row["attempts"][0]["error"].startswith("the con")
    assert client.delete("/api/notifications/webhook/").status_code == 204
    assert not Webhook.objects.exists()


def test_settings_changes_are_rate_limited(people: People, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "notify": "3/hour"}
    for _ in range(3):
        services.preferences_set(user=people.alice, choices={"bot.disabled": {"email": True}})
    with pytest.raises(RateLimited):
        services.webhook_set(user=people.alice, url="http://10.0.0.1/")
    client = Client()
    client.force_login(people.alice)
    assert client.post("/account/notifications/", {}).status_code == 429
    assert client.put("/api/notifications/webhook/", {"url": "http://10.0.0.1/"},
                      content_type="application/json").status_code == 429


def test_the_documented_receiver_accepts_the_leagues_signature() -> None:
    """docs/notifications.md's ``verify``, run as written against a signed delivery."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "notifications.md").read_text()
    code = doc.split("```python\n", 1)[1].split("seen: set", 1)[0]
    secret = signing.new_secret()
    scope: dict[str, Any] = {}
    exec(code.replace('b"whsec_..."', repr(secret.encode())), scope)
    body = b'{"id":"evt_1"}'
    headers = signing.headers(secret=secret, event_id="evt_1", kind="bot.disabled",
                              timestamp=int(time.time()), body=body)
    assert scope["verify"](headers, body)
    assert not scope["verify"](headers, body + b" ")
