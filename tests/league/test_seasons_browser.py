"""Seasons in a real browser (Debian's Chromium through Playwright) at 1280 and 390 px: the
ladder's page says which season runs and counts down to its end, the archive lists the
seasons, a season's page shows its podium and final table, a bot's page its past places.
Nothing scrolls sideways. Screenshots: var/test-artifacts/season-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import SHOTS, watch_for_errors
from tests.league.conftest import People
from tests.league.season_world import SeasonWorld, season_world
from tests.league.test_pages_browser import sideways

pytestmark = pytest.mark.slow

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture
def world(people: People) -> SeasonWorld:
    return season_world(people)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_seasons_read_well_at_both_widths(live_server: Any, world: SeasonWorld,
                                          viewer_browser: Any, width: str) -> None:
    w, h = WIDTHS[width]
    context = viewer_browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    problems = watch_for_errors(page)

    def fits() -> None:
        over = sideways(page)
        assert over["page"] <= 0, over
        if width == "phone":
            assert list(over) == ["page"], over

    page.goto(f"{live_server.url}/ladders/stones/")
    banner = page.locator("#season")
    assert "Season 2 is running" in banner.inner_text()
    clock = banner.locator("time.countdown").first
    first = clock.inner_text()
    page.wait_for_timeout(1200)
    assert clock.inner_text() != first and ":" in clock.inner_text(), "the countdown ticks"
    fits()
    page.screenshot(path=str(SHOTS / f"season-ladder-{width}.png"), full_page=True)

    page.click("text=all seasons")
    assert "queen-of-the-hill" in page.inner_text("#seasons")
    fits()
    page.screenshot(path=str(SHOTS / f"season-archive-{width}.png"), full_page=True)

    page.click("text=Opening season")
    assert page.locator(".podium .step").count() == 3
    assert page.locator("#table tbody tr").count() == 4
    fits()
    page.screenshot(path=str(SHOTS / f"season-table-{width}.png"), full_page=True)

    page.goto(f"{live_server.url}/bots/{world.bots['runner-up']}/")
    assert "2 of 4" in page.inner_text("#bot-seasons")
    fits()
    page.locator("#bot-seasons").screenshot(path=str(SHOTS / f"season-bot-{width}.png"))
    assert problems == []
    context.close()
