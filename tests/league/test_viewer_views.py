"""Wizard Duel's views in a real browser: the spectator's (everything) and each player's own,
which draws only that player's observation at the step on screen: its own map knowledge,
itself, where it last saw the opponent, and none of the opponent's moves."""

from __future__ import annotations

from typing import Any

import pytest

from league.ladders.models import Ladder, Match
from replay import MatchRecord
from tests.browser import shoot, watch_for_errors
from tests.league.viewer_world import engine_frames, play_builtins, record_of
from tests.viewer_checks import check, wait_drawn

pytestmark = pytest.mark.slow
Frames = dict[str, list[dict[str, Any]]]


@pytest.fixture
def duel(ladders: dict[str, Ladder]) -> tuple[Match, MatchRecord, Frames]:
    match = play_builtins(ladders, "wizard_duel")
    record = record_of(match)
    return match, record, {view: engine_frames(record, view) for view in ("spectator", 0, 1)}


def secret_step(record: MatchRecord, frames: Frames, seat: int) -> int:
    """A step at which ``seat``'s knowledge differs from the truth: the opponent stands
    somewhere it has not seen, and some cell it remembers has changed since."""
    for step in range(len(frames["spectator"]) // 3, len(frames["spectator"])):
        truth = frames["spectator"][step]["view"]
        mine = frames[seat][step]["view"]
        other = truth["wizards"][1 - seat]
        seen = mine["opponent"]
        if other["row"] is not None and (seen is None or (seen["row"], seen["col"]) !=
                                         (other["row"], other["col"])) and \
                mine["map"]["elements"] != truth["map"]["elements"]:
            return step
    raise AssertionError("no step where the player knows less than the spectator")


def test_each_players_view_draws_only_what_that_player_knew(
        live_server: Any, duel: tuple[Match, MatchRecord, Frames], viewer_browser: Any
        ) -> None:
    match, record, frames = duel
    page = viewer_browser.new_page(viewport={"width": 1280, "height": 900})
    problems = watch_for_errors(page)
    step = secret_step(record, frames, 0)
    page.goto(f"{live_server.url}/matches/{match.pk}/#step={step}")
    check("wizard_duel", frames["spectator"][step], wait_drawn(page, step))
    shoot(page, "viewer-wizard-spectator", "#replay")

    page.click("[data-view-choice='0']")
    shown = wait_drawn(page, step, "0")
    check("wizard_duel", frames[0][step], shown, "0")
    truth = frames["spectator"][step]["view"]
    other = truth["wizards"][1]
    assert not [w for w in shown["wizards"] if w["wizard"] == "1"], "the opponent is drawn"
    assert not [s for s in shown["sightings"]
                if (s["row"], s["col"]) == (str(other["row"]), str(other["col"]))]
    assert any(c["elements"] != truth["map"]["elements"][int(c["row"])][int(c["col"])]
               for c in shown["cells"]), "the player's view draws the true map"
    page.wait_for_function("h => window.location.hash === h", arg=f"#step={step}&view=0")
    # The opponent's moves are hidden in the list and in the caption.
    rows = page.locator(".move-row[data-seat='1']")
    assert rows.count() > 0
    for i in range(rows.count()):
        assert rows.nth(i).locator(".move-text").inner_text() == "hidden"
    mine = page.locator(".move-row[data-seat='0']").first
    assert mine.locator(".move-text").inner_text() != "hidden"
    shoot(page, "viewer-wizard-view0", "#replay")

    # Stepping keeps the view; the other player's view, opened by URL, is that player's.
    page.keyboard.press("ArrowRight")
    check("wizard_duel", frames[0][step + 1], wait_drawn(page, step + 1, "0"), "0")
    other_step = secret_step(record, frames, 1)
    fresh = viewer_browser.new_page(viewport={"width": 1280, "height": 900})
    problems += watch_for_errors(fresh)
    fresh.goto(f"{live_server.url}/matches/{match.pk}/#step={other_step}&view=1")
    check("wizard_duel", frames[1][other_step], wait_drawn(fresh, other_step, "1"), "1")
    last_move = frames["spectator"][other_step]["move"]
    caption = fresh.inner_text(".viewer-caption")
    if last_move["seat"] == 0:
        assert "played (hidden)" in caption and last_move["move"] not in caption, caption
    else:
        assert f"played {last_move['move']}" in caption, caption
    shoot(fresh, "viewer-wizard-view1", "#replay")

    # And back to everything.
    fresh.click("[data-view-choice='spectator']")
    check("wizard_duel", frames["spectator"][other_step], wait_drawn(fresh, other_step))
    assert problems == [], problems
