"""The notification settings in Debian's Chromium at a desktop's 1280 px and a phone's 390 px:
reached from the account page, a channel turned off and saved, a webhook added with its secret
shown once, and the delivery log with a failed and a delivered webhook. No page scrolls
sideways. Screenshots go to var/test-artifacts/notifications-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from league.accounts.models import Profile
from league.notifications.events import notify
from league.notifications.models import Attempt, EventKind, Notice, State, Webhook
from tests.browser import shoot, watch_for_errors
from tests.league.conftest import People

pytestmark = pytest.mark.slow

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture
def browser(viewer_browser: Any) -> Iterator[Any]:
    yield viewer_browser


@pytest.fixture
def carol(people: People, settings: Any) -> User:
    """Made, with her delivery log, before the browser starts (ORM calls in Playwright's loop
    leave connections)."""
    settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1/32"]
    user = User.objects.create_user("carol", email="carol@example.org",
                                    password=People.password)
    Profile.objects.create(user=user, verified_email=user.email)
    Webhook.objects.create(user=user, url="http://127.0.0.1:9/a-rather-long/path/to/the/hook",
                           secret="whsec_old", secret_made_at=timezone.now())
    now = timezone.now()
    for n, (kind, title, ok) in enumerate([
            (EventKind.VERSION_REJECTED, "a-very-long-bot-name-indeed v12 was rejected", False),
            (EventKind.VERSION_VALIDATED, "steady v3 passed validation", True)]):
        notice = notify(user_id=user.pk, kind=kind, about=str(n), title=title, text="x",
                        data={})
        assert notice is not None
        Notice.objects.filter(pk=notice.pk).update(
            email_state=State.SENT, webhook_state=State.SENT if ok else State.FAILED)
        for number in range(1, 2 if ok else 4):
            Attempt.objects.create(
                notice=notice, number=number, url="http://127.0.0.1:9/hook",
                at=now + timedelta(seconds=number), ok=ok, ms=12,
                status_code=200 if ok else 503,
                error="" if ok else "answered 503 (the receiver said it was overloaded)")
    Webhook.objects.filter(user=user).delete()  # she adds it again in the browser
    return user


def fits(page: Any) -> None:
    over = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert over <= 0, f"{page.url} scrolls sideways by {over} px"


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_settings_and_the_delivery_log_fit_and_work(live_server: Any, carol: User,
                                                        browser: Any, width: str) -> None:
    w, h = WIDTHS[width]
    url = live_server.url
    page = browser.new_page(viewport={"width": w, "height": h})
    page.set_default_timeout(20_000)
    problems = watch_for_errors(page)
    page.goto(f"{url}/account/login/")
    page.fill("#id_username", "carol")
    page.fill("#id_password", People.password)
    page.click("main button[type=submit]")
    page.goto(f"{url}/account/profile/")
    page.click("main a:text-is('Notifications')")
    page.wait_for_url(f"{url}/account/notifications/")
    assert "Mails go to carol@example.org" in page.inner_text("main")
    assert "answered 503" in page.inner_text("#deliveries")
    fits(page)
    shoot(page, f"notifications-settings-{width}")

    page.uncheck("#id_version_validated__email")
    page.click("#events button[type=submit]")
    page.wait_for_url(f"{url}/account/notifications/")
    assert "Notification settings saved" in page.inner_text("main")
    assert not page.is_checked("#id_version_validated__email")
    assert page.is_checked("#id_version_rejected__email")

    page.fill("#id_url", "http://10.1.2.3/hook")
    page.click("#webhook button[type=submit]")
    assert "10.1.2.3, a private address" in page.inner_text("#webhook")
    page.fill("#id_url", "http://127.0.0.1:9/hook")
    page.click("#webhook button[type=submit]")
    secret = page.inner_text("#new-secret code")
    assert secret.startswith("whsec_")
    fits(page)
    shoot(page, f"notifications-secret-{width}")
    page.goto(f"{url}/account/notifications/")
    assert secret not in page.content() and secret[:10] in page.inner_text("#webhook")
    page.locator("#deliveries").scroll_into_view_if_needed()
    fits(page)
    shoot(page, f"notifications-log-{width}")
    assert problems == []
