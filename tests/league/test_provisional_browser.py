"""Issue 34's provisional marks and queue in a real browser (Debian's Chromium through
Playwright) at 1280 and 390 px: the ladder's board says which version is provisional, still
placing and where it likely ranks; its queue lists the next matches with guessed starts; a
new version's bot page draws the rating with its μ ± 2σ band, and its version page says how
its placement goes. Nothing scrolls sideways. Screenshots: var/test-artifacts/prov-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from league.ladders.boards import NOVICE_GAMES
from league.ladders.models import Ladder, Match, MatchStatus, Participant, Standing
from tests.browser import SHOTS, watch_for_errors
from tests.league.conftest import People
from tests.league.pages import active, finished
from tests.league.test_pages_browser import sideways

pytestmark = pytest.mark.slow

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
SETTLED = [("alpha", 30.0), ("beta", 25.0), ("gamma", 20.0)]
NEW_PATH = [(26.0, 7.5), (27.5, 5.6), (26.4, 4.4), (25.6, 3.6), (25.0, 3.0)]
"""The new version's mu and sigma after each of its five games."""


@pytest.fixture
def world(people: People) -> dict[str, Any]:
    """Three settled bots and a new version five games into its placement (sigma 3), with
    a match of it running and one queued; made before the browser starts."""
    settled = {name: active(people.alice, name) for name, _ in SETTLED}
    newbie = active(people.bob, "newcomer-with-a-longish-name")
    opponents = list(settled.values())
    for i, (mu, sigma) in enumerate(NEW_PATH):
        match = finished(newbie, opponents[i % 3], seed=i, ago=200 - 30 * i, mu_after=mu)
        Participant.objects.filter(match=match, version=newbie).update(sigma_after=sigma)
    for name, mu in SETTLED:
        Standing.objects.filter(version=settled[name]).update(mu=mu, sigma=1.0, games=60,
                                                              wins=30, losses=30)
    Standing.objects.filter(version=newbie).update(mu=25.0, sigma=3.0, games=len(NEW_PATH),
                                                   wins=3, losses=2)
    ladder = Ladder.objects.get(game="stones")
    for status, other in ((MatchStatus.RUNNING, "alpha"), (MatchStatus.QUEUED, "beta"),
                          (MatchStatus.QUEUED, "gamma")):
        match = Match.objects.create(ladder=ladder, seed=9, status=status)
        for seat, version in enumerate((newbie, settled[other])):
            Participant.objects.create(match=match, seat=seat, version=version)
    return {"bot": newbie.bot_id, "version": newbie.pk}


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_board_and_a_new_versions_pages_say_how_sure_they_are(
        live_server: Any, world: dict[str, Any], viewer_browser: Any, width: str) -> None:
    w, h = WIDTHS[width]
    context = viewer_browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    problems = watch_for_errors(page)

    def fits() -> None:
        """Nothing scrolls sideways; on a phone, no table's own box either."""
        over = sideways(page)
        assert over["page"] <= 0, over
        if width == "phone":
            assert list(over) == ["page"], over

    page.goto(f"{live_server.url}/ladders/stones/")
    row = page.locator("tr.provisional")
    assert row.count() == 1
    words = row.locator("small.prov").inner_text()
    assert f"placing: {len(NEW_PATH)}/{NOVICE_GAMES} games" in words
    assert "likely #1–4" in words and "provisional" in words
    assert row.locator("small.prov").is_visible()  # under the name: a phone shows it too
    assert row.locator(".prov-mark").first.is_visible()
    queue = page.inner_text("#queue")
    assert "2 matches queued, 1 running on this ladder" in queue and "guess" in queue
    assert page.locator("#queue tbody tr").count() == 2
    fits()
    page.screenshot(path=str(SHOTS / f"prov-ladder-{width}.png"), full_page=True)

    page.goto(f"{live_server.url}/bots/{world['bot']}/")
    page.wait_for_selector("#history-chart[data-drawn='1']")
    assert "provisional" in page.inner_text("table:has(th:text('version'))")
    assert "μ ± 2σ" in page.inner_text(".chart-note")
    fits()
    page.screenshot(path=str(SHOTS / f"prov-bot-{width}.png"), full_page=True)

    page.goto(f"{live_server.url}/versions/{world['version']}/")
    placement = page.inner_text("#placement")
    assert f"placing: {len(NEW_PATH)} of its {NOVICE_GAMES} placement games played" in placement
    assert "likely #1–4" in placement and "playing now" in placement and "a guess" in placement
    fits()
    page.screenshot(path=str(SHOTS / f"prov-version-{width}.png"), full_page=True)
    assert problems == []
    context.close()
