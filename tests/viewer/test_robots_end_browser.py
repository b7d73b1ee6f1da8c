"""How a Robots run ended, as a player reads it (issue 38 item 9), in Debian's Chromium at
1280 and 390 px: the robot that caught the player is drawn over the player's piece (the
board's text has only "@" there), so the robots drawn are the robots counted; the rows and
columns are numbered as the end message names the cell ("row 3, column 5"). Both where it
is drawn: the replay viewer (a self-contained file, offline) and the play page (the play
API's stub). Screenshots: var/test-artifacts/robots-end-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.records import engine_record
from replay.html_export import replay_html
from tests.browser import chromium, shoot, watch_for_errors
from tests.play_driver import play_to_end
from tests.viewer.play_stub import serve
from tests.viewer.test_play_page_browser import free_port

pytestmark = pytest.mark.slow
SIZES = {1280: {"viewport": {"width": 1280, "height": 900}},
         390: {"viewport": {"width": 390, "height": 844}, "has_touch": True,
               "is_mobile": True}}
BOARD = {"rows": 8, "cols": 8}

READ = """(board) => { const svg = board.querySelector('svg');
  const caught = svg.querySelector('.caught');
  const player = svg.querySelector('.cell[data-cell="@"]');
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right,
    r.bottom]; };
  return { left: Number(svg.dataset.robotsLeft),
    robots: svg.querySelectorAll('.cell[data-cell="+"]').length,
    caught: caught && [Number(caught.dataset.row), Number(caught.dataset.col), box(caught)],
    player: player && [Number(player.dataset.row), Number(player.dataset.col), box(player)],
    axis: [...svg.querySelectorAll('.axis')].map((e) => e.textContent) }; }"""


def check_end(shown: dict[str, Any], message: str) -> None:
    row, col = map(int, re.search(r"at row (\d+), column (\d+)", message).groups())
    assert shown["caught"] and shown["caught"][:2] == [row, col] == shown["player"][:2], shown
    # drawn over the player's piece, overlapping it on screen
    c, p = shown["caught"][2], shown["player"][2]
    assert c[0] < p[2] and p[0] < c[2] and c[1] < p[3] and p[1] < c[3], (c, p)
    assert shown["robots"] + 1 == shown["left"], shown
    numbers = [str(n) for n in range(BOARD["cols"])]
    assert shown["axis"] == numbers + numbers, shown["axis"]  # columns, then rows


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.mark.parametrize("width", [1280, 390])
def test_the_robot_that_caught_you_is_drawn_where_the_message_says(
        browser: Any, tmp_path: Path, width: int) -> None:
    record = engine_record("robots", seed=1, options=BOARD)
    assert record.result is not None and record.result.reason == "game-over"
    path = tmp_path / "robots.html"
    path.write_text(replay_html(record), encoding="utf-8")
    context = browser.new_context(**SIZES[width], offline=True)
    page = context.new_page()
    problems = watch_for_errors(page)
    page.goto(f"{path.as_uri()}#step={len(record.moves)}")
    page.wait_for_selector(f".viewer-board[data-step='{len(record.moves)}'] svg .caught")
    check_end(page.eval_on_selector(".viewer-board", READ), record.result.detail)
    assert record.result.detail in page.inner_text(".viewer-result, .viewer-caption")
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page scrolls sideways: {wide}"
    shoot(page, f"robots-end-replay-{width}")
    # the play page: a run played to its end through the keypad
    stub = serve(free_port(), robots={"options": BOARD})
    try:
        page.context.set_offline(False)
        page.goto(f"http://127.0.0.1:{stub.server_address[1]}/play/robots/")
        play_to_end(page, "robots", touch=width < 400, robot_keys=width >= 400)
        page.wait_for_selector(".play-result:not([hidden])")
        state = stub.matches["robots"].state
        if state.result.reason == "game-over":  # else the run outlasted its turns: no catch
            check_end(page.eval_on_selector(".play-board", READ), state.result.detail)
            assert state.result.detail.replace("the player", "you") in page.inner_text(
                ".play-result") or state.result.detail in page.inner_text(".play-result")
        shoot(page, f"robots-end-play-{width}")
    finally:
        stub.shutdown()
    assert problems == [], problems
    context.close()
