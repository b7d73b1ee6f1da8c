"""A season's finals in a real browser at 1280 and 390 px: the season's page links its finals
("results to be released" while held back), the finals' page says whose finals it is and, to
staff, offers "Release results"; after the release everyone sees the winner. Nothing scrolls
sideways. Screenshots: var/test-artifacts/finals-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from league.competitions.models import Tournament
from tests.browser import SHOTS, watch_for_errors
from tests.league.conftest import People
from tests.league.test_competitions_browser import log_in
from tests.league.test_pages_browser import sideways
from tests.league.test_season_finals import _ended_season, _play, competitions_tick

pytestmark = pytest.mark.slow

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.mark.parametrize("width", list(WIDTHS))
def test_finals_read_well_at_both_widths(live_server: Any, people: People,
                                         viewer_browser: Any, width: str) -> None:
    season = _ended_season(people.alice, size=4, finals_release="staff",
                           freeze_for_finals=True)
    competitions_tick()
    t = Tournament.objects.get(finals_of=season)
    _play(t)
    w, h = WIDTHS[width]
    context = viewer_browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    problems = watch_for_errors(page)

    def fits() -> None:
        over = sideways(page)
        assert over["page"] <= 0, over
        if width == "phone":
            assert list(over) == ["page"], over

    page.goto(f"{live_server.url}/seasons/{season.pk}/")
    assert "results to be released" in page.inner_text("#finals")
    fits()
    page.screenshot(path=str(SHOTS / f"finals-season-{width}.png"), full_page=True)

    page.click("#finals a")
    assert "The finals of Stones Season 1" in page.inner_text("#finals-of")
    assert "to be released by staff" in page.inner_text("#finals-of")
    assert page.locator("#winner").count() == 0
    fits()
    page.screenshot(path=str(SHOTS / f"finals-held-{width}.png"), full_page=True)

    log_in(page, live_server.url, "sam", people.password)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    assert page.locator("#winner").count() == 1
    fits()
    page.screenshot(path=str(SHOTS / f"finals-staff-{width}.png"), full_page=True)
    page.click("#release button")
    page.wait_for_load_state()
    assert "Results released" in page.inner_text("#finals-of")
    fits()
    page.screenshot(path=str(SHOTS / f"finals-released-{width}.png"), full_page=True)
    assert problems == []
    context.close()
