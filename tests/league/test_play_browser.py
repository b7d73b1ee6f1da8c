"""Playing against bots in a real browser (Debian's Chromium through Playwright) on a live
league (gunicorn and a real play worker on PostgreSQL and Redis, tests/league/play_world.py)
with real sandboxed bots: whole games through the play page, as a person plays them — Stones
against the perfect player (and lost), Blokus Duo with pieces turned and flipped (by touch at
390 px), 2048 by the arrow keys beside the bots' scores on its seed, Robots by the keypad (by
touch at 390 px), Wizard Duel with nothing of the other wizard's hidden state in any answer
the page gets, nor in the match's page or frames opened in a second tab; an illegal choice
refused with a message, a closed tab forfeited by the person's clock, a bot that crashes
mid-game losing by forfeit. Screenshots: var/test-artifacts/play-*.png."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections

from league.ladders.models import Ladder, Match
from tests.browser import shoot, watch_for_errors
from tests.league.play_world import PlayLeague, running_play_league
from tests.play_driver import (
    cell,
    play_to_end,
    status_line,
    step_of,
    wait_turn,
    wizard_move,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

HUMAN_MOVE_SECONDS = 12
"""The person's clock a move in this module's league: a closed tab loses within it, and the
tests' own moves are made well inside it."""
WIZARD_TURNS = 6
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture(scope="module")
def league(django_db_setup: None, django_db_blocker: Any,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayLeague]:
    env = {"LEAGUE_PLAY_MOVE_SECONDS": str(HUMAN_MOVE_SECONDS),
           "LEAGUE_PLAY_LONG_POLL_SECONDS": "5"}
    with running_play_league(django_db_blocker, tmp_path_factory, env=env) as world:
        with world.orm():
            # short duels: every turn of a whole game is still played through the page
            Ladder.objects.filter(game="wizard_duel").update(
                options={"turns_each": WIZARD_TURNS})
            # 2048 on 3 x 3: a whole game by keys in tens of moves, not hundreds (the bot's
            # run on the seed, from the cast, was on the default 4 x 4)
            Ladder.objects.filter(game="g2048").update(options={"rows": 3, "cols": 3})
            connections.close_all()  # see result_of
        yield world


@pytest.fixture
def browser(viewer_browser: Any) -> Any:
    """Chromium for one test (conftest's): started after the test's database access is set
    up and closed before it is torn down, so no connection is made inside Playwright's loop
    but the test's own (``result_of`` closes those)."""
    return viewer_browser


def open_game(league: PlayLeague, browser: Any, who: str, sizes: dict[str, Any],
              **start: Any) -> tuple[Any, int, list[str]]:
    """Start a game through the form and open its play page: (page, match id, problems)."""
    match = league.start(league.login(who), **start)
    context = league.browser_context(browser, who, **sizes)
    page = context.new_page()
    problems = watch_for_errors(page)
    page.goto(f"{league.url}/play/{match}/")
    page.wait_for_selector("#play[data-status]")
    return page, match, problems


def result_of(league: PlayLeague, match: int) -> dict[str, Any]:
    with league.orm():
        try:
            row = Match.objects.get(pk=match)
            return {"status": row.status, "reason": row.reason, **(row.result or {})}
        finally:
            # Made while Playwright's loop runs, this connection is not the one pytest-django
            # closes at the end: left open, it would keep the test database from being dropped.
            connections.close_all()


def check_end(page: Any, league: PlayLeague, match: int, name: str) -> dict[str, Any]:
    """The page shows the result and links the replay; the match's page has it."""
    page.wait_for_selector(".play-result:not([hidden])", timeout=30_000)
    shown = page.inner_text(".play-result")
    assert page.get_attribute(".play-replay-link", "href") == f"/matches/{match}/"
    state = json.loads(page.evaluate("""async (url) => JSON.stringify(await (await fetch(url,
        {credentials: 'same-origin'})).json())""", f"/api/play/{match}/"))
    assert state["status"] == "finished", state
    assert state["result"]["text"] in shown, (shown, state["result"])
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page scrolls sideways: {wide}"
    shoot(page, f"play-{name}")
    return state


def check_words_while_playing(page: Any) -> None:
    """The clocks say what they count: the person's move and whole game, the bot's move and
    its time bank (not "game"); how to play is written under the board."""
    labels = page.eval_on_selector_all(
        ".play-player", "ps => ps.map(p => [p.classList.contains('human'), "
        "[...p.querySelectorAll('.clock-part .muted')].map(e => e.textContent)])")
    for human, words in labels:
        assert words == (["this move", "whole game"] if human else
                         ["this move", "time bank"][:len(words)]), labels
    assert page.is_visible(".play-keys")


def test_stones_against_the_perfect_player_lost_with_an_illegal_cell_refused(
        league: PlayLeague, browser: Any) -> None:
    page, match, problems = open_game(league, browser, "alice", DESKTOP,
                                      opponent="builtin:perfect", game="stones", seat=1)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.post_data or "") if r.method == "POST"
            else None)
    assert wait_turn(page)
    # A blocked cell: marked not legal, nothing sent, the clock still running.
    blocked = page.eval_on_selector(".play-board .cell:not(.legal)", "e => e.dataset.move")
    page.click(cell(*blocked.split(",")))
    state, text = status_line(page)
    assert state == "illegal" and blocked in text and posts == []
    assert page.locator(".play-player[data-seat='1'][data-running='1']").count() == 1
    # the running clock counts down on the page between the server's answers
    clock = ".play-player[data-seat='1']"
    first = int(page.get_attribute(clock, "data-move-ms"))
    page.wait_for_timeout(1200)
    later = int(page.get_attribute(clock, "data-move-ms"))
    assert first - 2500 < later < first - 700, (first, later)
    assert first <= HUMAN_MOVE_SECONDS * 1000
    check_words_while_playing(page)
    shoot(page, "play-stones-illegal")
    # A move sent anyway (an old tab, a hand-made request) is refused by the server with the
    # engine's words, and the game goes on.
    answer = page.evaluate("""async (move) => {
        const data = JSON.parse(document.getElementById("play-data").textContent);
        const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
        const r = await fetch(data.move_url, { method: "POST", body: JSON.stringify({ move,
          step: Number(document.querySelector("#play").dataset.step) }),
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf.slice(10) } });
        return [r.status, await r.json()]; }""", blocked)
    assert answer[0] == 400 and answer[1]["error"].startswith("illegal move: "), answer
    done = play_to_end(page, "stones")
    end = check_end(page, league, match, "stones-lost")
    assert end["result"]["winner"] == 0 and "perfect wins" in end["result"]["text"]
    # the loser is "you", not "player 1"; the hint on how to play is gone with the game
    assert end["result"]["reason"] == "you have no free cell", end["result"]
    assert "you have no free cell" in page.inner_text(".play-result")
    assert page.is_hidden(".play-keys")
    assert len(posts) == len(done["moves"]) + 1 and len(done["moves"]) >= 2
    assert page.locator(".play-moves .move-row[data-seat]").count() == end["step"]
    assert [p for p in problems if "400 (Bad Request)" not in p] == [], problems


def test_blokus_duo_by_touch_at_phone_width_with_pieces_turned_and_flipped(
        league: PlayLeague, browser: Any) -> None:
    page, match, problems = open_game(league, browser, "bob", PHONE,
                                      opponent="builtin:random", game="blokus_duo", seat=0)
    done = play_to_end(page, "blokus_duo", touch=True, blokus_pieces=3, seed=4)
    placed = [m for m in done["moves"] if m != "X000"]
    assert len(placed) == 3 and done["moves"][-1] == "X000"
    assert done["rotate"] >= 1 and done["flip"] >= 1, done
    end = check_end(page, league, match, "blokus-phone")
    mine = [m["move"] for m in end["moves"] if m["seat"] == 0]
    assert mine == done["moves"], (mine, done["moves"])
    assert problems == [], problems


def test_2048_by_the_arrow_keys_beside_the_bots_on_its_seed(
        league: PlayLeague, browser: Any) -> None:
    seed = league.cast["seeds"][0]
    page, match, problems = open_game(league, browser, "carol", DESKTOP, game="g2048",
                                      seat=0, seed=seed)
    done = play_to_end(page, "g2048", max_moves=3000, timeout=60_000)
    end = check_end(page, league, match, "g2048-end")
    assert [m["move"] for m in end["moves"]] == done["moves"]
    rows = page.eval_on_selector_all(".play-seed tbody tr", "rs => rs.map(r => "
                                     "[r.className, r.cells[1].textContent, r.dataset.score])")
    assert any(name == "g2048-first" for _, name, _ in rows), rows
    you = [r for r in rows if r[0] == "you"]
    assert len(you) == 1 and float(you[0][2]) == end["result"]["scores"][0]
    assert problems == [], problems


def test_robots_by_the_keypad_by_touch_at_phone_width(league: PlayLeague,
                                                      browser: Any) -> None:
    page, match, problems = open_game(league, browser, "alice", PHONE, game="robots", seat=0)
    done = play_to_end(page, "robots", touch=True, seed=2)
    end = check_end(page, league, match, "robots-phone")
    assert [m["move"] for m in end["moves"]] == done["moves"]
    assert problems == [], problems


def test_wizard_duel_shows_nobody_more_than_their_seat_may_know(
        league: PlayLeague, browser: Any) -> None:
    page, match, problems = open_game(league, browser, "bob", DESKTOP,
                                      opponent="builtin:random", game="wizard_duel", seat=0)
    answers: list[tuple[str, str]] = []

    def keep(response: Any) -> None:
        if response.url.startswith(league.url) and "/static/" not in response.url:
            # a redirect, or an answer of a page torn down, has no body to keep
            with contextlib.suppress(Exception):
                answers.append((response.url, response.text()))

    page.on("response", keep)
    page.reload()  # so the first answers are kept too
    # a second tab, as the same person, while the game runs: the match's page, its header
    # and every view's frames are withheld
    spy = page.context.new_page()
    spy.on("response", keep)
    rng = random.Random(3)
    moves: list[str] = []
    after = -1
    while wait_turn(page, after):
        after = step_of(page)
        if len(moves) == 2:
            spy.goto(f"{league.url}/matches/{match}/")
            assert spy.locator("#viewer").count() == 0
            assert "withheld" in spy.inner_text("main")
            for url in (f"/api/matches/{match}/viewer/",
                        f"/api/matches/{match}/frames/?start=0&stop=50",
                        f"/api/matches/{match}/frames/?start=0&stop=50&view=1",
                        f"/api/matches/{match}/frames/?start=0&stop=50&view=0"):
                code = spy.evaluate("async (u) => (await fetch(u)).status", url)
                assert code == 403, (url, code)
            shoot(page, "play-wizard-duel")
        moves.append(wizard_move(page, rng, touch=False))
    end = check_end(page, league, match, "wizard-end")
    # the placement, then a move each turn but those a look skipped
    assert moves[0].startswith("place ") and len(moves) >= 2, moves
    # Now public: the whole game as the engine knows it, to look for in what the page got.
    record = json.loads(page.evaluate("async (u) => JSON.stringify(await (await fetch(u))"
                                      ".json())", f"/api/matches/{match}/replay/"))
    theirs = [m["move"] for m in record["moves"] if m["seat"] == 1]
    assert theirs and theirs[0].startswith("place ")
    during = [(u, t) for u, t in answers if "/api/play/" in u or "/matches/" in u]
    assert len(during) > WIZARD_TURNS
    for url, text in during:
        if "/replay/" in url:
            continue
        if ("/api/play/" in url and text.startswith("{")
                and json.loads(text).get("status") == "finished"):
            continue  # the end: everything is public then
        if "/status.json" in url and json.loads(text)["state"] not in ("queued", "running"):
            continue  # the match page in the second tab, polled past the end: public then
        # spectator-only fields, the other wizard's placement, the seed: none of it
        assert '"wizards"' not in text and '"refill_at"' not in text, url
        assert theirs[0] not in text, (url, theirs[0])
        assert str(record["seed"]) not in text, url
        if "/api/play/" in url and text.startswith("{"):
            state = json.loads(text)
            if "frame" not in state or state["status"] == "finished":
                continue  # a move's answer, or the end (everything is public then)
            assert all(m["move"] is None for m in state["moves"] if m["seat"] == 1), url
            view = state["frame"]["view"]
            assert view["player"] == 0 and "you" in view
            assert all(e["seat"] == 0 for e in state["frame"].get("events", [])), url
    # once it is over, the bot's moves are shown to the person, in the list too
    assert [m["move"] for m in end["moves"] if m["seat"] == 1] == theirs
    assert page.locator(".play-moves .hidden-move").count() == 0
    assert problems == [], problems


def test_a_closed_tab_loses_on_the_persons_clock(league: PlayLeague, browser: Any) -> None:
    page, match, problems = open_game(
        league, browser, "carol", DESKTOP,
        opponent=str(league.cast["bots"]["stones-random"]), game="stones", seat=0)
    assert wait_turn(page)
    page.context.close()  # the tab is gone: no more moves, no more polls
    deadline = time.monotonic() + HUMAN_MOVE_SECONDS + 30
    while result_of(league, match)["status"] != "finished":
        assert time.monotonic() < deadline, result_of(league, match)
        time.sleep(0.5)
    result = result_of(league, match)
    assert result["winner"] == 1 and result["forfeit"]["player"] == 0, result
    assert result["forfeit"]["kind"] == "timeout", result
    # coming back shows how it ended
    again = league.browser_context(browser, "carol", **DESKTOP).new_page()
    again.goto(f"{league.url}/play/{match}/")
    again.wait_for_selector(".play-result:not([hidden])")
    assert "wins" in again.inner_text(".play-result")
    assert problems == [], problems


def test_a_bot_that_crashes_mid_game_loses_by_forfeit(league: PlayLeague,
                                                      browser: Any) -> None:
    page, match, problems = open_game(
        league, browser, "alice", DESKTOP,
        opponent=str(league.cast["bots"]["stones-crasher"]), game="stones", seat=0)
    after = -1
    while wait_turn(page, after):
        after = step_of(page)
        # the last free cell each time: the crasher (first free cell) still has a third move
        last = page.eval_on_selector_all(".play-board .cell.legal", "es => es.map(e => "
                                         "e.dataset.move)")[-1]
        page.click(cell(*last.split(",")))
    end = check_end(page, league, match, "stones-crasher")
    assert end["result"]["winner"] == 0, end["result"]
    result = result_of(league, match)
    assert result["forfeit"]["player"] == 1 and result["forfeit"]["kind"] == "crash", result
    assert problems == [], problems


def test_wizard_duel_at_phone_width_fits_and_moves_as_drawn(league: PlayLeague,
                                                             browser: Any) -> None:
    """The whole 20-column map in a 390 px window, lying as at 1280 px: "↓ down" moves the
    wizard down the screen (a standing map had drawn it moving right)."""
    moved: list[tuple[str, list[float], list[float]]] = []
    for _ in range(3):  # the random opponent's spell may end a game before a step is made
        page, _, problems = open_game(league, browser, "dave", PHONE,
                                      opponent="builtin:random", game="wizard_duel", seat=0)
        moved = _a_step_down_or_up(page)
        if moved:
            break
        page.context.close()
    assert moved, "the wizard never moved"
    step, before, now = moved[0]
    assert now[1] == before[1] and now[0] == before[0] + (1 if step == "move D" else -1)
    # on screen: straight down (or up) by about a cell, not sideways
    assert abs(now[2] - before[2]) < 2, (before, now)
    assert (now[3] - before[3]) * (1 if step == "move D" else -1) > 8, (before, now)
    shoot(page, "play-wizard-phone")
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page scrolls sideways: {wide}"
    assert problems == [], problems
    page.context.close()


def _a_step_down_or_up(page: Any) -> list[tuple[str, list[float], list[float]]]:
    """Checks the map's fit, places the wizard mid-map and steps it down (or up): the step
    that moved it, with where it was and is (row, col, centre x, y); empty if the game
    ended first."""
    assert wait_turn(page)
    width = page.evaluate("window.innerWidth")
    columns = page.eval_on_selector_all(
        ".play-board .cell[data-row='0']", "es => es.map(e => { const r = "
        "e.getBoundingClientRect(); return [Number(e.dataset.col), r.left, r.right]; })")
    assert sorted(c for c, _, _ in columns) == list(range(20)), columns
    assert all(left >= 0 and right <= width for _, left, right in columns), (width, columns)
    assert page.get_attribute(".play-board svg", "data-layout") == "lying"
    # placed in the middle rows, away from the map's top and bottom edges
    places = page.eval_on_selector_all(".play-board .cell.legal", "es => es.map(e =>"
                                       " [e.dataset.row, e.dataset.col])")
    row, col = next((r, c) for r, c in places if 3 <= int(r) <= 6)
    page.tap(cell(row, col))
    page.tap(cell(row, col))
    wizard = ".play-board .wizard[data-wizard='0']"
    where = """(sel) => { const w = document.querySelector(sel); const r =
        w.getBoundingClientRect(); return [Number(w.dataset.row), Number(w.dataset.col),
        r.left + r.width / 2, r.top + r.height / 2]; }"""
    moved: list[tuple[str, list[float], list[float]]] = []
    after = step_of(page)
    for _ in range(4):  # an obstacle may block a step: try again, up or down
        if not wait_turn(page, after):
            return moved
        after = step_of(page)
        before = page.evaluate(where, wizard)
        step = "move D" if page.locator('button[data-move="move D"]').count() else "move U"
        page.tap(f'button[data-move="{step}"]')
        if not wait_turn(page, after):
            return moved
        now = page.evaluate(where, wizard)
        if now[:2] != before[:2]:
            moved.append((step, before, now))
            break
    return moved


def test_resign_ends_the_game_at_once_and_rematch_swaps_the_seats(league: PlayLeague,
                                                                   browser: Any) -> None:
    page, match, problems = open_game(league, browser, "erin", PHONE,
                                      opponent="builtin:random", game="stones", seat=0)
    assert wait_turn(page)
    check_words_while_playing(page)
    assert page.is_hidden("#play-rematch") and page.is_visible("#play-resign")
    page.tap("#play-resign button")  # the first press only asks again
    assert "Really resign?" in page.inner_text("#play-resign button")
    assert result_of(league, match)["status"] == "running"
    started = time.monotonic()
    page.tap("#play-resign button")
    page.wait_for_selector(".play-result:not([hidden])", timeout=15_000)
    assert time.monotonic() - started < 10, "not at once: by the clock?"
    assert "you forfeit: resigned" in page.inner_text(".play-result")
    assert page.is_hidden(".play-keys")
    # the rematch is offered in the result, the resignation gone
    assert page.locator(".play-result #play-rematch").count() == 1
    result = result_of(league, match)
    assert result["winner"] == 1 and result["forfeit"] == {
        "player": 0, "kind": "resigned", "detail": ""}, result
    assert page.is_hidden("#play-resign") and page.is_visible("#play-rematch")
    shoot(page, "play-resigned-phone")
    # the rematch: the same built-in player, erin now second
    page.tap("#play-rematch button")
    page.wait_for_url(lambda url: "/play/" in url and f"/play/{match}/" not in url)
    page.wait_for_selector("#play[data-status]")
    again = int(page.url.rstrip("/").rsplit("/", 1)[1])
    data = json.loads(page.inner_text("#play-data"))
    assert data["seat"] == 1 and data["game"] == "stones"
    names = page.eval_on_selector_all(".play-player", "es => es.map(e => [e.dataset.seat, "
                                      "e.querySelector('.play-name').textContent])")
    assert ["0", "built-in random"] in names, names
    assert wait_turn(page)
    page.tap("#play-resign button")
    page.tap("#play-resign button")
    page.wait_for_selector(".play-result:not([hidden])", timeout=15_000)
    assert result_of(league, again)["forfeit"]["kind"] == "resigned"
    assert problems == [], problems
