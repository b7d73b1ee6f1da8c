"""The replay viewer in a real browser (Debian's Chromium through Playwright) on the league's
match pages: for each game a replay played by the league's own match runner is opened,
stepped, played, scrubbed and opened at a step by URL, and what is drawn is checked against
the engine's frame at that step. Screenshots go to var/test-artifacts/viewer-*.png."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from benchmarks.records import engine_record
from league.ladders.models import Ladder, Match
from replay import MatchRecord, MoveRecord
from tests.browser import shoot, watch_for_errors
from tests.league.viewer_world import (
    PLAYERS,
    engine_frames,
    play_builtins,
    record_of,
    store_record,
)
from tests.viewer_checks import check, wait_drawn

pytestmark = pytest.mark.slow


def step_of(page: Any) -> int:
    return int(page.eval_on_selector("#viewer", "e => e.dataset.step"))


def scrub_to(page: Any, step: int) -> None:
    """Move the scrub bar as a drag does: its value changes, then it says so."""
    page.eval_on_selector(".viewer-scrub", """(e, v) => { e.value = String(v);
        e.dispatchEvent(new Event("input", { bubbles: true })); }""", step)


@pytest.fixture
def replay(ladders: dict[str, Ladder], game: str) -> tuple[Match, MatchRecord, list[dict]]:
    """A match of ``game`` played by the league's runner, its record and the engine's frames
    (made before the browser starts: ORM calls inside Playwright's loop would open a
    connection nobody closes)."""
    match = play_builtins(ladders, game)
    record = record_of(match)
    return match, record, engine_frames(record)


def paused_at(page: Any, timeout: float = 10) -> int:
    """The step the viewer rests at once paused: not playing, and the same step at two
    looks 0.3 s apart (its controls show a change on the next animation frame)."""
    deadline = time.monotonic() + timeout
    seen = None
    while time.monotonic() < deadline:
        now = page.evaluate("() => { const v = document.querySelector('#viewer'); "
                            "return [v.dataset.playing, v.dataset.step]; }")
        if now[0] == "0" and now == seen:
            return int(now[1])
        seen = now
        time.sleep(0.3)
    raise AssertionError(f"the viewer did not rest after the pause: {seen}")


@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_real_replay_steps_plays_scrubs_and_opens_at_a_step_as_the_engine_draws_it(
        live_server: Any, replay: tuple[Match, MatchRecord, list[dict]], viewer_browser: Any,
        game: str) -> None:
    match, record, frames = replay
    last = len(frames) - 1
    assert last >= 4, f"{game}: a replay too short to step through ({last} moves)"
    url = f"{live_server.url}/matches/{match.pk}/"
    browser = viewer_browser
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems = watch_for_errors(page)

    page.goto(url)
    check(game, frames[0], wait_drawn(page, 0))
    # Keyboard: → → ← ; then the buttons.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check(game, frames[2], wait_drawn(page, 2))
    page.keyboard.press("ArrowLeft")
    check(game, frames[1], wait_drawn(page, 1))
    page.click("button[data-action=forward]")
    check(game, frames[2], wait_drawn(page, 2))
    page.click("button[data-action=back]")
    check(game, frames[1], wait_drawn(page, 1))

    # Play fast for a while, then pause with the space bar: the step it stopped at is drawn.
    page.select_option(".viewer-speed", "16")
    page.click("button[data-action=toggle]")
    # (before the last step: a replay played to its end stops by itself, and the space bar
    # would then play it again from the start)
    target = max(2, min(last - 2, 6))
    page.wait_for_function("t => Number(document.querySelector('#viewer').dataset.step) >= t",
                           arg=target)
    page.locator("body").press(" ")
    stopped = paused_at(page)
    check(game, frames[stopped], wait_drawn(page, stopped))

    # Scrub to the middle; then a real click a quarter of the way along the bar.
    middle = last // 2
    scrub_to(page, middle)
    check(game, frames[middle], wait_drawn(page, middle))
    page.wait_for_function("h => window.location.hash === h", arg=f"#step={middle}")
    bar = page.locator(".viewer-scrub").bounding_box()
    page.mouse.click(bar["x"] + bar["width"] * 0.25, bar["y"] + bar["height"] / 2)
    # the step is drawn on the next animation frame, not at once
    page.wait_for_function(
        "m => Number(document.querySelector('#viewer').dataset.step) !== m", arg=middle)
    clicked = step_of(page)
    assert abs(clicked - last / 4) <= max(2, last * 0.05), (clicked, last)
    check(game, frames[clicked], wait_drawn(page, clicked))

    # The move list: each row names its seat, move and time, and jumps there.
    row = page.locator(f".move-row[data-step='{clicked + 1}']")
    assert row.get_attribute("data-seat") == str(record.moves[clicked].seat)
    assert record.moves[clicked].move in row.inner_text()
    row.click()
    check(game, frames[clicked + 1], wait_drawn(page, clicked + 1))
    page.wait_for_selector(f".move-row.current[data-step='{clicked + 1}']")

    # End shows the last position and the result with its reason; Home the start.
    page.locator("body").press("End")
    check(game, frames[last], wait_drawn(page, last))
    assert record.result is not None
    result = page.inner_text(".viewer-result")
    header = page.evaluate("async (u) => (await fetch(u)).json()",
                           f"/api/matches/{match.pk}/viewer/")
    assert header["result"]["summary"] in result, result
    assert re.sub(r"\bplayer \d\b", "", result) == result, "seats named, not players"
    shoot(page, f"viewer-{game}-end", "#replay")
    page.locator("body").press("Home")
    check(game, frames[0], wait_drawn(page, 0))

    # A URL that names a step opens there (a fresh page, not a hash change).
    jump = (2 * last) // 3
    fresh = browser.new_page(viewport={"width": 1280, "height": 900})
    problems += watch_for_errors(fresh)
    fresh.goto(f"{url}#step={jump}")
    check(game, frames[jump], wait_drawn(fresh, jump))
    shoot(fresh, f"viewer-{game}", "#replay")
    fresh.set_viewport_size({"width": 390, "height": 844})
    wait_drawn(fresh, jump)
    shoot(fresh, f"viewer-{game}-phone", "#replay")
    assert problems == [], problems


@pytest.fixture
def broken_replay(ladders: dict[str, Ladder]) -> tuple[Match, int]:
    """A stored replay whose 6th move the engine refuses (as if the rules had changed)."""
    record = engine_record("stones", seed=3)
    record.moves[5] = MoveRecord(record.moves[5].seat, record.moves[0].move, 0.01)
    return store_record(ladders["stones"], record), 6


def test_a_replay_that_no_longer_replays_says_so_and_shows_no_step_past_it(
        live_server: Any, broken_replay: tuple[Match, int], viewer_browser: Any) -> None:
    match, bad = broken_replay
    page = viewer_browser.new_page(viewport={"width": 1280, "height": 900})
    problems = watch_for_errors(page)
    page.goto(f"{live_server.url}/matches/{match.pk}/#step=3")
    wait_drawn(page, 3)
    page.locator("body").press("End")
    banner = page.locator(".viewer-banner.broken")
    banner.wait_for()
    assert f"move {bad}" in banner.inner_text() and "no longer replays" in banner.inner_text()
    wait_drawn(page, bad - 1)
    assert step_of(page) == bad - 1
    assert page.locator(".viewer-result").is_hidden()
    shoot(page, "viewer-broken", "#replay")
    assert problems == [], problems
