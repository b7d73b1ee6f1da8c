"""Issue 38's tournament words in Debian's Chromium at 1280 and 390 px: a round robin of two
that ended level is shown tied on points with the tie-break that decided named (and its
Sonneborn-Berger of a quarter written 0.25), and the new-tournament form speaks the reader's
own time, names the zone, and sends UTC; its "open to the league's bots" box is there and
said on the tournament's page. Screenshots: var/test-artifacts/tournament-*.png."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from tests.browser import shoot, watch_for_errors
from tests.league.conftest import People
from tests.league.test_competitions_browser import WIDTHS, log_in, no_sideways_scroll
from tests.league.tournament_world import field, open_tournament, play_rounds, start

pytestmark = pytest.mark.slow
ZONE, OFFSET = "Asia/Kolkata", dt.timedelta(hours=5, minutes=30)  # a half-hour zone


@pytest.fixture
def tied(people: People) -> int:
    """Two bots, one series of two games, each won by the bot in seat 0: 1-1, drawn."""
    pair = field(people.alice, 1, prefix="left") + field(people.bob, 1, prefix="right")
    t = play_rounds(start(open_tournament(people.alice, pair, "round_robin", name="Level",
                                          games_per_series=2)), winner=lambda seats: 0)
    assert t.state == "finished"
    return t.pk


@pytest.mark.parametrize(("width", "w", "h"), WIDTHS)
def test_a_tie_is_shown_as_one_and_the_form_speaks_local_time(
        live_server: Any, tied: int, people: People, viewer_browser: Any, width: str,
        w: int, h: int) -> None:
    context = viewer_browser.new_context(viewport={"width": w, "height": h}, timezone_id=ZONE)
    page = context.new_page()
    page.set_default_timeout(20_000)
    problems = watch_for_errors(page)
    url = live_server.url

    page.goto(f"{url}/tournaments/{tied}/")
    state = page.inner_text("#state")
    assert "Winner:" in state and re.search(
        r"tied on points with (left0|right0) \(½ each\), first on the tie-break: seed "
        r"\(Sonneborn-Berger and game points level too\)", state), state
    sb = page.eval_on_selector_all("#standings tbody tr", "rs => rs.map(r => r.cells[0] && "
                                   "[...r.cells].map(c => c.textContent.trim()))")
    assert all("0.25" in row for row in sb), sb  # each drew with the other: ½ of ½
    no_sideways_scroll(page)
    shoot(page, f"tournament-tied-{width}")

    log_in(page, url, "alice", people.password)
    page.goto(f"{url}/tournaments/new/")
    label = page.inner_text("label[for=id_registration_closes]")
    assert "your time: Asia/" in label and "UTC+05:30" in label, label  # ICU: Calcutta
    tomorrow = (dt.datetime.now(dt.UTC) + OFFSET + dt.timedelta(days=1)).date()
    assert page.input_value("#id_registration_closes").startswith(f"{tomorrow}T19:00")
    no_sideways_scroll(page)
    shoot(page, f"tournament-new-local-{width}")
    page.fill("#id_name", f"Evening cup {width}")
    page.fill("#id_registration_closes", f"{tomorrow}T20:15:00")
    page.fill("#id_starts_at", f"{tomorrow}T21:00:00")
    # open to the league's bots: a box that says what it does (issue 38 item 6)
    assert "Open to the league's bots" in page.inner_text("#field-open_to_league_bots label")
    assert "take challenges" in page.inner_text("#field-open_to_league_bots")
    page.check("#id_open_to_league_bots")
    page.click("#new-tournament button[type=submit]")
    page.wait_for_selector("#state")
    closes = dt.datetime.fromisoformat(f"{tomorrow}T20:15:00") - OFFSET  # sent as UTC
    assert f"open until {closes:%Y-%m-%d %H:%M} UTC" in page.inner_text("#state")
    assert page.is_visible("#open-to-league-bots")
    shoot(page, f"tournament-open-to-league-bots-{width}")
    assert problems == [], problems
    context.close()
