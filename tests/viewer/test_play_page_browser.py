"""The play page in Debian's Chromium against the stub of the play API
(tests/viewer/play_stub.py: the engine and a built-in player in this process): whole games
played through the page as a person would, in the ways the league's browser tests
(tests/league/test_play_browser.py, real workers and sandboxed bots) leave out: Blokus Duo by
mouse and keys, 2048 by swipes at 390 px, Robots by keys; and a refusal by the server shown.
Screenshots: var/test-artifacts/play-stub-*.png."""

from __future__ import annotations

import random
import re
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import chromium, shoot, watch_for_errors
from tests.play_driver import play_to_end, status_line, step_of, wait_turn, wizard_move
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


CRYPTIC = re.compile(r"^(?:[FWTAE]\d+(?: [FWTAE]\d+)*|\d|[UDLR] \d)$")
"""A Wizard Duel button as it was labelled: the notation's tail ("T1", "1", "U 1")."""


@pytest.mark.parametrize("width", [1280, 390])
def test_wizard_duel_controls_say_what_they_do(browser: Any, stub: StubServer,
                                               width: int) -> None:
    """Every action button says what it does in words; "Your turn" counts the legal actions
    by kind; the move list's names are whole at both widths; the rules are one click away."""
    touch = width < 400
    context = browser.new_context(viewport={"width": width, "height": 900 if not touch
                                            else 844}, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    problems = watch_for_errors(page)
    page.goto(url(stub, "wizard_duel"))
    assert page.get_attribute("a.play-rules", "href") == "/games/wizard_duel/#rules"
    rng = random.Random(5)
    after, seen, said = -1, set(), []
    while len(seen) < 4 and wait_turn(page, after):
        after = step_of(page)
        labels = page.eval_on_selector_all(".play-panel button", "bs => bs.map(b => "
                                           "b.textContent.trim())")
        assert not [t for t in labels if CRYPTIC.match(t)], labels
        seen.update(page.eval_on_selector_all(".action-group", "gs => gs.map(g => "
                                              "g.dataset.group)"))
        said.append(status_line(page)[1])
        wizard_move(page, rng, touch=touch)
    assert {"move", "gather", "look"} <= seen, seen
    assert "Your turn: you may choose among 100 cells to place on." in said, said
    turn = next(s for s in said if " step" in s)
    assert re.search(r"Your turn: you may choose among \d+ steps?, .* and \d+ looks", turn), turn
    if "gather" in seen:
        gather = page.eval_on_selector_all("[data-group=gather] button", "bs => bs.map(b => "
                                           "b.textContent)")
        assert not gather or re.search(r"\d (fire|water|wood|wind|earth)", gather[0]), gather
    # the longest names of the notation, in a row of the list as the page lays it out
    cut = page.evaluate("""(names) => { const row = document.querySelector(
        '.play-moves .move-row[data-seat]'); const out = []; for (const name of names) {
        const copy = row.cloneNode(true); copy.querySelector('.move-no').textContent = '200';
        copy.querySelector('.move-time').textContent = '12.34 s';
        const text = copy.querySelector('.move-text'); text.className = 'move-text';
        text.textContent = name; row.parentNode.append(copy);
        if (text.scrollWidth > text.clientWidth + 1) out.push(name); copy.remove(); }
        return out; }""", ["cast arrow 9 19", "cast wall U 2", "cast scan D 2",
                           "gather F2 W2 T2", "cast shield 2"])
    assert cut == [], cut
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page scrolls sideways: {wide}"
    shoot(page, f"play-stub-wizard-words-{width}")
    assert problems == [], problems
    context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_blokus_duos_board_pieces_and_place_are_seen_together(browser: Any, stub: StubServer,
                                                              width: int) -> None:
    """Issue 38 item 12: on a 390 x 844 phone the board, the pieces and the Place button are
    on the one screen the page opens on (rotate, flip and place under the board, the pieces
    in a row that scrolls sideways); at 1280 px they fit one window's height together."""
    touch = width < 400
    context = browser.new_context(viewport={"width": width, "height": 844 if touch else 900},
                                  has_touch=touch, is_mobile=touch)
    page = context.new_page()
    problems = watch_for_errors(page)
    page.goto(url(stub, "blokus_duo"))
    assert wait_turn(page)
    piece = ".blokus-tray .piece-choice:not([disabled])"
    page.tap(piece) if touch else page.click(piece)
    boxes = page.evaluate("""() => Object.fromEntries(['.play-board svg', '.blokus-tray',
        '[data-action=place]', '[data-action=rotate]', '.blokus-tray .piece-choice'].map(
        (s) => { const r = document.querySelector(s).getBoundingClientRect();
                 return [s, [r.top, r.bottom, r.left, r.right]]; }))""")
    high = page.evaluate("window.innerHeight")
    board, place = boxes[".play-board svg"], boxes["[data-action=place]"]
    tray = boxes[".blokus-tray"]
    assert place[1] - board[0] <= high and tray[1] - board[0] <= high, (high, boxes)
    if touch:  # on the screen as opened, nothing scrolled
        assert all(b[0] >= 0 and b[1] <= high for b in boxes.values()), (high, boxes)
        assert boxes["[data-action=rotate]"][0] == place[0], boxes  # one line
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page scrolls sideways: {wide}"
    shoot(page, f"play-stub-blokus-one-screen-{width}")
    assert problems == [], problems
    context.close()
