"""The play page in Debian's Chromium against the stub of the play API
(tests/viewer/play_stub.py: the engine and a built-in player in this process): whole games
played through the page as a person would, in the ways the league's browser tests
(tests/league/test_play_browser.py, real workers and sandboxed bots) leave out: Blokus Duo by
mouse and keys, 2048 by swipes at 390 px, Robots by keys; and a refusal by the server shown.
Screenshots: var/test-artifacts/play-stub-*.png."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import chromium, shoot, watch_for_errors
from tests.play_driver import play_to_end, status_line, wait_turn
from tests.viewer.play_stub import StubServer, serve

pytestmark = pytest.mark.slow
CHOICES = {"g2048": {"options": {"rows": 3, "cols": 3}},
           "wizard_duel": {"options": {"turns_each": 4}},
           "robots": {"options": {"rows": 8, "cols": 8}}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = serve(free_port(), **CHOICES)
    yield server
    server.shutdown()


def url(stub: StubServer, game: str) -> str:
    return f"http://127.0.0.1:{stub.server_address[1]}/play/{game}/"


@pytest.mark.parametrize("game,width,touch", [
    # what the league's browser tests do not: Blokus Duo by mouse and keys, 2048 by swipes,
    # Robots by keys
    ("blokus_duo", 1280, False), ("g2048", 390, True), ("robots", 1280, False),
])
def test_a_whole_game_through_the_page(browser: Any, stub: StubServer, game: str, width: int,
                                       touch: bool) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900 if width > 400
                                            else 844}, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    problems = watch_for_errors(page)
    page.goto(url(stub, game))
    done = play_to_end(page, game, touch=touch, blokus_pieces=3, robot_keys=not touch)
    assert done["moves"], "no move made"
    page.wait_for_selector(".play-result:not([hidden])")
    match = stub.matches[game]
    assert match.state.is_over()
    summary = match.state.result.summary()
    assert summary in page.inner_text(".play-result")
    # every move the page sent is the one the engine played for the human
    mine = [m.move for m in match.moves if m.seat == match.seat]
    assert len(mine) == len(done["moves"])
    if game == "blokus_duo":
        assert done["rotate"] + done["flip"] > 0 and mine[-1] == "X000"
    if game in ("g2048", "robots"):
        assert page.locator(".play-seed tr.you").count() == 1
    if game == "g2048":
        assert len(mine) >= 5  # by swipes
    rows = page.locator(".play-moves .move-row").count()
    assert rows >= 2
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page scrolls sideways: {wide}"
    shoot(page, f"play-stub-{game}-{width}")
    assert problems == [], problems
    context.close()


def test_an_illegal_choice_is_marked_and_not_sent_and_a_refusal_is_shown(
        browser: Any, stub: StubServer) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems = watch_for_errors(page)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.post_data or "") if r.method == "POST"
            else None)
    page.goto(url(stub, "stones"))
    assert wait_turn(page)
    page.click(".play-board .cell[data-row='2'][data-col='2']")
    wait_turn(page, 0)
    blocked = page.eval_on_selector(".play-board .cell:not(.legal)", "e => e.dataset.move")
    page.click(f".play-board .cell[data-move='{blocked}']")
    state, text = status_line(page)
    assert state == "illegal" and blocked in text
    assert len(posts) == 1
    # The server refuses a move (as the league does when the position moved on): the
    # engine's words are shown on the board, and the move can be chosen again.
    stub.matches["stones"].refuse_next = "illegal move: cell (4,4) is taken (stub)"
    legal = page.eval_on_selector(".play-board .cell.legal", "e => e.dataset.move")
    page.click(f".play-board .cell[data-move='{legal}']")
    page.wait_for_selector(".play-status[data-state=error]")
    assert "cell (4,4) is taken" in status_line(page)[1]
    page.click(f".play-board .cell[data-move='{legal}']")
    page.wait_for_function("() => Number(document.querySelector('#play').dataset.step) >= 3")
    assert [m.move for m in stub.matches["stones"].moves][2] == legal
    assert len(posts) == 3
    assert [p for p in problems if "400 (Bad Request)" not in p] == [], problems
