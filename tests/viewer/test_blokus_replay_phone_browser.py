"""Blokus Duo's replay on a phone (issue 38 item 11): the pieces left to each player, under
the board, drawn big enough to tell apart (they were specks a few pixels tall), at 390 px as
at 1280 px, in Debian's Chromium from a self-contained replay file, offline. Screenshots:
var/test-artifacts/blokus-replay-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.records import engine_record
from replay.html_export import replay_html
from tests.browser import chromium, shoot, watch_for_errors

pytestmark = pytest.mark.slow


def test_the_pieces_left_are_pieces_at_both_widths(tmp_path: Path) -> None:
    record = engine_record("blokus_duo", seed=3, player="random")
    path = tmp_path / "blokus.html"
    path.write_text(replay_html(record), encoding="utf-8")
    with chromium() as browser:
        for width in (1280, 390):
            context = browser.new_context(viewport={"width": width, "height": 844},
                                          offline=True)
            page = context.new_page()
            problems = watch_for_errors(page)
            page.goto(f"{path.as_uri()}#step=10")
            page.wait_for_selector(".viewer-board[data-step='10'] svg .pieces")
            sizes = page.eval_on_selector_all(".viewer-board svg .pieces", """gs => gs.map(
                g => { const box = g.getBoundingClientRect(); const square = g.querySelector(
                '.piece rect').getBoundingClientRect(); return [box.width, box.height,
                square.width, g.querySelectorAll('.piece').length]; })""")
            board = page.eval_on_selector(".viewer-board svg .cell", "c => "
                                          "c.getBoundingClientRect().width")
            for panel_w, panel_h, square, pieces in sizes:
                assert pieces == 21 and panel_h >= 80 and square >= 4.5, (width, sizes)
                assert panel_w >= 0.8 * 14 * board or width > 600, (width, sizes, board)
            wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert wide[0] <= wide[1], f"the page scrolls sideways: {wide}"
            shoot(page, f"blokus-replay-{width}")
            assert problems == [], problems
            context.close()
