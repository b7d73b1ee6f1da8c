"""Logs at the turn in a real browser: the owner of a bot sees, at each step, the lines it
wrote while choosing that move; another user and an anonymous visitor see no log at all, and
their pages and API answers do not even carry one (the server leaves it out)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from league.ladders.models import Ladder, Match
from replay import MatchRecord
from tests.browser import shoot, watch_for_errors
from tests.league import bots
from tests.league.conftest import People
from tests.league.pages import active
from tests.league.viewer_world import play, record_of

pytestmark = pytest.mark.slow
SECRET_WORDS = "thinking about turn"


@pytest.fixture
def chatty_match(ladders: dict[str, Ladder], people: People) -> tuple[Match, MatchRecord]:
    chatty = active(people.alice, "chatty", source=bots.CHATTY)
    match = play(ladders["stones"], [chatty, "random"], seed=3)
    return match, record_of(match)


def log_in(page: Any, url: str, username: str) -> None:
    page.goto(f"{url}/account/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", People.password)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda u: "/account/login/" not in u)


def shown_lines(page: Any, seat: int) -> list[str]:
    block = page.locator(f".viewer-log[data-seat='{seat}']")
    pre = block.locator("pre.log").first
    if block.locator("pre.log").count() and pre.is_visible():
        return pre.inner_text().split("\n")
    return []


def test_the_owner_sees_the_lines_of_each_move_and_nobody_else_gets_any(
        live_server: Any, chatty_match: tuple[Match, MatchRecord], viewer_browser: Any
        ) -> None:
    match, record = chatty_match
    lines = record.players[0].log_lines()
    assert record.version == 2 and lines, "the bot's log was not kept with its turns"
    mine = [n for n, m in enumerate(record.moves) if m.seat == 0]
    assert len(mine) >= 2
    url = f"{live_server.url}/matches/{match.pk}/"

    alice = viewer_browser.new_context(viewport={"width": 1280, "height": 900})
    page = alice.new_page()
    problems = watch_for_errors(page)
    log_in(page, live_server.url, "alice")
    for number in mine[:3]:
        step = number + 1  # the position after alice's move; its lines came before it
        page.goto(f"{url}#step={step}")
        page.wait_for_function("s => document.querySelector('#viewer').dataset.step === s",
                               arg=str(step))
        wanted = [line for turn, line in lines if turn == number]
        assert wanted == [f"thinking about turn {number}",
                          f"chose {record.moves[number].move} at turn {number}"]
        page.wait_for_selector(".viewer-log[data-seat='0'] pre.log")
        assert shown_lines(page, 0) == wanted
    shoot(page, "viewer-logs-owner", "#replay")
    # At the opponent's move, alice's bot wrote nothing.
    theirs = next(n for n, m in enumerate(record.moves) if m.seat == 1)
    page.goto(f"{url}#step={theirs + 1}")
    page.wait_for_function("s => document.querySelector('#viewer').dataset.step === s",
                           arg=str(theirs + 1))
    assert "nothing written at this move" in page.inner_text(".viewer-log[data-seat='0']")
    assert page.locator(".viewer-log[data-seat='1']").count() == 0, "the built-in's log"
    alice.close()

    for who in ("bob", None):
        context = viewer_browser.new_context(viewport={"width": 1280, "height": 900})
        other = context.new_page()
        problems += watch_for_errors(other)
        if who:
            log_in(other, live_server.url, who)
        other.goto(f"{url}#step={mine[0] + 1}")
        other.wait_for_selector(".viewer-board svg")
        assert other.locator(".viewer-logs").is_hidden()
        assert SECRET_WORDS not in other.content()
        api = other.evaluate("""async (u) => (await fetch(u)).text()""",
                             f"/api/matches/{match.pk}/viewer/")
        assert json.loads(api)["logs"] == {} and SECRET_WORDS not in api
        frames = other.evaluate("""async (u) => (await fetch(u)).text()""",
                                f"/api/matches/{match.pk}/frames/?stop=100")
        assert SECRET_WORDS not in frames
        shoot(other, f"viewer-logs-{who or 'anonymous'}", "#replay")
        context.close()
    assert problems == [], problems
