"""The site in a real browser: Debian's Chromium driven by Playwright against the live
server, with a real Celery worker validating the uploads. Screenshots of each page at a
desktop (1280 px) and a phone (390 px) width go to var/test-artifacts/ (git-ignored)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.league import bots
from tests.league.conftest import ROOT, Worker
from tests.league.pages import EVIL

pytestmark = pytest.mark.slow
playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = ROOT / "var" / "test-artifacts"
PASSWORD = "Browser-test-pass-7"


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (requirements-apt.txt)")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the test makes
    # in between are plain synchronous ones.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def shoot(page: object, name: str) -> None:
    """The page at desktop and phone width; the viewport is set back to desktop after."""
    for label, width, height in [("desktop", 1280, 900), ("phone", 390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)  # the chart redraws on its ResizeObserver
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_sign_up_token_upload_validate_ladder_match_and_chart(
        live_server: object, worker: Worker, ladders: dict, browser: object) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    dialogs: list[str] = []
    problems: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    url = live_server.url

    # Sign up, with a display name that tries to run a script.
    page.goto(f"{url}/account/signup/")
    page.fill("#id_username", "browsy")
    page.fill("#id_display_name", EVIL[:60])
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/my/bots/")

    # A token, shown once.
    page.goto(f"{url}/account/tokens/")
    page.fill("#id_name", "laptop")
    page.click("text=Create token")
    secret = page.inner_text("#new-token code")
    assert secret.startswith("blt_")
    shoot(page, "tokens")
    page.goto(f"{url}/account/tokens/")
    assert secret not in page.content() and "laptop" in page.content()

    # Two uploads on "my bots": one plays, one crashes; both are followed as they validate.
    for name, source in [("slider", bots.RANDOM), ("crashy", bots.CRASH)]:
        page.goto(f"{url}/my/bots/")
        page.select_option("#id_game", "g2048")
        page.fill("#id_name", name)
        page.set_input_files("#id_file", files=[{
            "name": "main.py", "mimeType": "text/x-python", "buffer": source.encode()}])
        page.click("#upload button[type=submit]")
        page.wait_for_selector(f"text={name} v1 uploaded")
    page.wait_for_selector("#my-bots .active", timeout=60_000)
    page.wait_for_selector("#my-bots .rejected", timeout=60_000)
    assert "crash: exited with code 3" in page.inner_text("#my-bots")
    shoot(page, "my-bots")
    page.click("#my-bots tr:has-text('crashy') a:text-is('v1')")
    page.wait_for_selector("pre.log")
    assert "oh no" in page.inner_text("pre.log")  # the rejected version's own stderr
    assert "rejected: crash: exited with code 3" in page.inner_text("#version-status")
    shoot(page, "version-rejected")

    # The ladder lists the new bot; its page charts its score; one of its matches opens.
    page.goto(f"{url}/ladders/2048/")
    shoot(page, "ladder")
    page.click("a:text-is('slider')")
    page.wait_for_selector("#history-chart[data-drawn]")
    assert painted(page, "#history-chart") > 100, "the chart drew nothing"
    shoot(page, "bot")
    page.click(".matches td:first-child a")
    page.wait_for_selector(".viewer-board svg")  # the replay viewer drew the match
    assert "slider v1" in page.inner_text("main")
    shoot(page, "match")

    # Pages that show the display name ran no script; no CSP violation or error anywhere.
    page.goto(f"{url}/u/browsy/")
    shoot(page, "user")
    page.goto(url)
    shoot(page, "home")
    assert dialogs == [], dialogs
    assert problems == [], problems
    print(f"\nscreenshots in {SHOTS}")
    context.close()


@pytest.fixture
def climber(people: object) -> int:
    """A rated bot with two versions and 20 matches, made before the browser starts (ORM
    calls made while Playwright's loop runs would open a connection nobody closes)."""
    from tests.league.pages import active, finished

    first = active(people.alice, "climber")
    rival = active(people.bob, "rival")
    for i in range(12):
        finished(first, rival, seed=i, ago=3600 - i, mu_after=24 + i / 3)
    second = active(people.alice, "climber", source=bots.FIRST)
    for i in range(8):
        finished(rival, second, seed=20 + i, ago=100 - i, mu_after=28 + i / 2)
    return first.bot_id


def test_a_rated_bots_chart_draws_a_line_per_version(
        live_server: object, climber: int, browser: object) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/bots/{climber}/")
    page.wait_for_selector("#history-chart[data-drawn]")
    assert painted(page, "#history-chart") > 1000
    assert page.eval_on_selector("#history-data", "e => JSON.parse(e.textContent)"
                                 ".series.length") == 2
    shoot(page, "rated-bot")
    page.close()


def painted(page: object, selector: str) -> int:
    """How many pixels of the canvas are not transparent."""
    return page.eval_on_selector(selector, """canvas => {
        const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
        let n = 0;
        for (let i = 3; i < data.data.length; i += 4) if (data.data[i]) n++;
        return n;
    }""")


def test_screenshots_folder_is_git_ignored() -> None:
    assert (ROOT / ".gitignore").read_text().count("/var/") == 1
    assert Path(SHOTS).is_relative_to(ROOT / "var")
