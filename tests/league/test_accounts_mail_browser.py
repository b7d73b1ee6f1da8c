"""A forgotten password, in Debian's Chromium at a desktop's 1280 px and a phone's 390 px: from
the log-in page's "Forgot your password?" to the mail (Django's test backend: the live server
runs in this process), its link followed, a new password set, and a log-in with it; the account
page with its confirmed address. No page scrolls sideways. Screenshots go to
var/test-artifacts/mail-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail

from league.accounts.models import Profile
from tests.browser import shoot, watch_for_errors
from tests.league.conftest import People

pytestmark = pytest.mark.slow

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
NEW_PASSWORD = "Brand-new-secret-77"


@pytest.fixture
def browser(viewer_browser: Any) -> Iterator[Any]:
    yield viewer_browser


@pytest.fixture
def carol(people: People) -> User:
    """Made before the browser starts (ORM calls in Playwright's loop leave connections)."""
    user = User.objects.create_user("carol", email="carol@example.org",
                                    password=People.password)
    Profile.objects.create(user=user, verified_email=user.email)
    return user


def fits(page: Any) -> None:
    over = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert over <= 0, f"{page.url} scrolls sideways by {over} px"


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_forgotten_password_is_reset_by_mail_and_the_new_one_logs_in(
        live_server: Any, carol: User, browser: Any, width: str) -> None:
    w, h = WIDTHS[width]
    url = live_server.url
    page = browser.new_page(viewport={"width": w, "height": h})
    page.set_default_timeout(20_000)
    problems = watch_for_errors(page)

    page.goto(f"{url}/account/login/")
    page.click("main a:text-is('Forgot your password?')")
    page.wait_for_url(f"{url}/account/password/reset/")
    page.fill("#id_email", "carol@example.org")
    fits(page)
    shoot(page, f"mail-reset-form-{width}")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}/account/password/reset/sent/")
    assert "Check your mail" in page.inner_text("main h1")
    fits(page)
    shoot(page, f"mail-reset-sent-{width}")

    (message,) = mail.outbox
    assert message.to == ["carol@example.org"]
    link = re.search(rf"{re.escape(url)}/account/password/reset/\S+", message.body)
    assert link, message.body  # to the address the request came to
    page.goto(link[0])
    page.wait_for_selector("#id_new_password1")
    page.fill("#id_new_password1", NEW_PASSWORD)
    page.fill("#id_new_password2", NEW_PASSWORD)
    fits(page)
    shoot(page, f"mail-reset-new-password-{width}")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}/account/password/reset/done/")
    assert "Password reset" in page.inner_text("main h1")

    page.click("main a:text-is('Log in')")
    page.fill("#id_username", "carol")
    page.fill("#id_password", NEW_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}/my/bots/")
    page.goto(f"{url}/account/profile/")
    assert page.text_content("#email .badge") == "confirmed"
    fits(page)
    shoot(page, f"mail-account-{width}")

    # the link was for one use
    page.goto(link[0])
    assert "does not work" in page.inner_text("main h1")
    assert problems == [], problems
    page.close()
