"""A bot's statistics page in headless Chromium at 1280 and 390 px: it fits (nothing scrolls
sideways but a table's own box, and at 390 px not even that), its bars are drawn, a forfeit's
link opens the replay at its step, and no script fails. Screenshots: var/test-artifacts/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import SHOTS, watch_for_errors
from tests.league.conftest import People
from tests.league.test_bot_stats import _world
from tests.league.test_pages_browser import sideways

pytestmark = pytest.mark.slow
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture
def world(people: People) -> dict[str, Any]:
    return _world(people)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_statistics_page_fits_draws_its_bars_and_links_the_forfeit_to_its_step(
        live_server: Any, world: dict[str, Any], viewer_browser: Any, width: str) -> None:
    w, h = WIDTHS[width]
    context = viewer_browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    problems = watch_for_errors(page)
    for name, path in (("rated", f"/bots/{world['bot']}/stats/"),
                       ("older", f"/bots/{world['bot']}/stats/?version=1"),
                       ("scored", f"/bots/{world['solo']}/stats/")):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        over = sideways(page)
        assert over["page"] <= 0, f"{name} at {w} px scrolls sideways: {over}"
        if width == "phone":
            assert list(over) == ["page"], f"{name} at {w} px: {over}"
        # every histogram bar with a count is drawn with a width
        bars = page.eval_on_selector_all("table.histogram svg rect", """rs => rs.map(r =>
            r.getBoundingClientRect().width)""")
        assert bars and max(bars) > 20, (name, bars)
        page.screenshot(path=str(SHOTS / f"bot-stats-{name}-{width}.png"), full_page=True)
    page.goto(f"{live_server.url}/bots/{world['bot']}/stats/")
    wdl = page.eval_on_selector_all("svg.wdl rect", "rs => rs.map(r => r.getAttribute('class'))")
    assert "win" in wdl and "loss" in wdl
    page.click("table.forfeit-examples a")
    page.wait_for_load_state("networkidle")
    forfeit = world["forfeit"]
    assert page.url.endswith(f"/matches/{forfeit.pk}/#step={forfeit.moves}")
    assert problems == [], problems
    context.close()
