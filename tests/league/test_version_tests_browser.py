"""A version test in Debian's Chromium at 1280 and 390 px: its owner starts it from the bot's
page, lands on the test's page, watches the LLR chart grow without reloading while its games
end (finished here by hand, as test_version_tests.py does, each one's bell rung), and reads
the verdict. Screenshots in var/test-artifacts/ (versiontest-*)."""

from __future__ import annotations

from typing import Any

import pytest

from league.versiontests.models import VersionTest
from tests.browser import shoot, watch_for_errors
from tests.league.conftest import People, wait_for
from tests.league.test_competitions_browser import log_in
from tests.league.versiontest_world import play_pair, two_versions

pytestmark = pytest.mark.slow


def points(page: Any) -> int:
    return len((page.get_attribute("polyline.llr", "points") or "").split())


@pytest.mark.parametrize(("width", "w", "h"), [("desktop", 1280, 900), ("phone", 390, 844)])
def test_start_a_test_from_the_bot_page_and_watch_it_decide(
        live_server: Any, people: People, viewer_browser: Any, width: str, w: int,
        h: int) -> None:
    candidate, baseline = two_versions(people.alice)
    page = viewer_browser.new_page(viewport={"width": w, "height": h})
    page.set_default_timeout(20_000)
    problems = watch_for_errors(page)
    log_in(page, live_server.url, "alice", people.password)
    page.goto(f"{live_server.url}/bots/{candidate.bot_id}/")
    page.click("#versiontest-new summary")
    assert page.input_value("#id_candidate") == str(candidate.pk)
    assert page.input_value("#id_baseline") == str(baseline.pk)
    shoot(page, f"versiontest-form-{width}", "#version-tests")
    page.click("#versiontest-form button[type=submit]")
    page.wait_for_url(lambda u: "/tests/" in u)
    test = VersionTest.objects.get()
    assert points(page) == 1
    play_pair(test, "win", "draw")
    play_pair(test, "win", "win")
    # the site's CSP allows no eval (wait_for_function's string): poll from here
    wait_for(lambda: points(page) == 3, 20, "the chart to grow by two pairs")
    shoot(page, f"versiontest-running-{width}")
    for _ in range(40):
        play_pair(test, "win", "win")
        test.refresh_from_db()
        if test.state != "running":
            break
    assert test.state == "h1"
    page.wait_for_selector(".state-h1 #verdict", timeout=20_000)
    verdict = page.inner_text("#verdict")
    assert f"mybot v{candidate.number} is stronger: +" in verdict
    assert f"after {2 * test.pairs} games" in verdict
    assert points(page) == test.pairs + 1
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= w, f"the page is {wide} px wide at {w} px"
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, f"versiontest-decided-{width}")
    page.set_viewport_size({"width": w, "height": 2400})
    shoot(page, f"versiontest-decided-full-{width}")
    assert not problems, problems
