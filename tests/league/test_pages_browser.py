"""The site's pages in a real browser (Debian's Chromium through Playwright) at a desktop's
1280 px and a phone's 390 px: no page scrolls sideways, the tables keep their useful columns,
and each correction of issue 22's "correct and live pages" shows: charts without validation
points, results naming bots, Wizard Duel legible (result, turns, captions, a map that stands
up on a phone), the site's own 404, the upload banner following a version to its verdict (a
rejection's reason and log inline), the game picker remembering, user pages ranking each bot.
A match's header followed live is in ``test_viewer_live``. Screenshots go to
var/test-artifacts/pages-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from league.bots.models import Bot
from league.ladders.models import Ladder, Match, MatchKind, Participant
from tests.browser import SHOTS, shoot, watch_for_errors
from tests.league import bots
from tests.league.conftest import ROOT, People, Worker
from tests.league.pages import active, finished
from tests.league.viewer_world import play

pytestmark = pytest.mark.slow

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
LONG_USER = "a_username_long_enough_to_break_any_table_" + "x" * 30
LONG_BOT = "a-bot-name-long-enough-to-break-tables-x"  # the longest a name may be: 40
VALIDATION_SCORE = 74.0


@pytest.fixture
def world(people: People) -> dict[str, Any]:
    """Bots, matches and replays for the pages, made before the browser starts (ORM calls
    made while Playwright's loop runs would open a connection nobody closes)."""
    climber = active(people.alice, "climber")
    rival = active(people.bob, "rival")
    # a validation match whose score is no rating: the chart leaves it out
    validation = Match.objects.create(ladder=Ladder.objects.get(game="stones"),
                                      kind=MatchKind.VALIDATION, seed=1, status="finished",
                                      finished_at=climber.created_at, moves=9)
    Participant.objects.create(match=validation, seat=0, version=climber,
                               score=VALIDATION_SCORE)
    ladder_matches = [finished(climber, rival, seed=i, ago=600 - i, mu_after=24 + i)
                      for i in range(3)]
    long_owner = User.objects.create_user(LONG_USER, password=People.password)
    long_bot = active(long_owner, LONG_BOT)
    finished(long_bot, climber, seed=9)
    wizard = (ROOT / "examples" / "wizard_duel" / "main.py").read_text()
    duel = play(Ladder.objects.get(game="wizard_duel"),
                [active(people.alice, "merlin", game="wizard_duel", source=wizard),
                 active(people.bob, "morgana", game="wizard_duel", source=bots.RANDOM)], 5)
    return {"climber": climber.bot_id, "climber_version": climber.pk, "rival": rival.bot_id,
            "stones_match": ladder_matches[-1].pk, "duel": duel.pk,
            "duel_moves": duel.moves, "ladder_points": len(ladder_matches) + 1}


@pytest.fixture
def browser(viewer_browser: Any) -> Iterator[Any]:
    yield viewer_browser


def pages(world: dict[str, Any]) -> dict[str, str]:
    return {
        "home": "/", "ladders": "/ladders/", "games": "/games/", "protocol": "/protocol/",
        **{f"game-{g}": f"/games/{g}/" for g in ("blokus_duo", "stones", "wizard_duel",
                                                 "g2048", "robots")},
        **{f"ladder-{s}": f"/ladders/{s}/" for s in ("blokus-duo", "stones", "wizard-duel",
                                                     "2048", "robots")},
        "bot": f"/bots/{world['climber']}/", "version": f"/versions/{world['climber_version']}/",
        "match": f"/matches/{world['stones_match']}/", "duel": f"/matches/{world['duel']}/",
        "user": "/u/alice/", "user-long": f"/u/{LONG_USER}/", "tournaments": "/tournaments/",
        "play": "/play/",
        "signup": "/account/signup/", "login": "/account/login/", "api-docs": "/api/docs/",
        "404": "/no/such/page/",
    }


KEPT = {
    # table (by selector) → the header cells a phone still shows (rated, scored)
    "table.board": (["#", "bot", "rating", "W/L/D"], ["#", "bot", "mean score"]),
    "table.matches": (["#", "players", "result"],),
    "table.players": (["player", "result", "rating"], ["player", "result"]),
    "table.user-bots": (["bot", "rank", "rating or score"],),
}


def shown_headers(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector(selector, """t => [...t.querySelectorAll("thead th")]
        .filter(th => th.offsetParent !== null).map(th => th.textContent.trim())""")


def sideways(page: Any) -> dict[str, int]:
    """How far the page, and each table's box, would scroll sideways."""
    return page.evaluate("""() => {
        const out = {page: document.documentElement.scrollWidth - window.innerWidth};
        document.querySelectorAll(".scroll, table").forEach((e, i) => {
            const over = e.scrollWidth - e.clientWidth;
            if (over > 1) out[(e.className || e.tagName) + "#" + i] = over;
        });
        return out; }""")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_every_page_fits_and_keeps_its_useful_columns(
        live_server: Any, world: dict[str, Any], browser: Any, width: str) -> None:
    w, h = WIDTHS[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    problems = watch_for_errors(page)
    for name, path in pages(world).items():
        problems.clear()
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == (404 if name == "404" else 200), (name, response.status)
        page.wait_for_load_state("networkidle")
        over = sideways(page)
        assert over["page"] <= 0, f"{name} at {w} px scrolls sideways: {over}"
        if width == "phone":  # the tables' own boxes too: no table needs a sideways swipe
            assert list(over) == ["page"], f"{name} at {w} px: {over}"
            for table, kept in KEPT.items():
                if page.query_selector(table):
                    assert shown_headers(page, table) in kept, (name, table)
        assert page.query_selector("header nav a[href='/games/']"), f"{name}: no top bar"
        expected = ["404 (Not Found)"] if name == "404" else []
        assert [p for p in problems if not any(e in p for e in expected)] == [], (name, problems)
        page.screenshot(path=str(SHOTS / f"pages-{name}-{width}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_play_is_one_click_from_the_home_page_the_top_bar_and_a_games_page(
        live_server: Any, people: People, browser: Any, width: str) -> None:
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    problems = watch_for_errors(page)
    page.goto(f"{live_server.url}/")
    assert page.is_visible("header nav a[href='/play/']")
    assert page.is_visible(".intro a[href='/tournaments/']")  # tournaments, from the home page
    page.click("#home-play")
    page.wait_for_url(f"{live_server.url}/play/")
    page.wait_for_selector("#play-form-stones")
    for game in ("stones", "blokus_duo", "wizard_duel", "g2048", "robots"):
        assert page.is_visible(f"#play-form-{game}"), game
    assert "Log in" in page.inner_text("#play-form-stones")
    page.screenshot(path=str(SHOTS / f"pages-play-from-home-{width}.png"), full_page=True)
    page.goto(f"{live_server.url}/games/wizard_duel/")
    page.click("a.button[href='/play/#play-form-wizard_duel']")
    page.wait_for_url(f"{live_server.url}/play/#play-form-wizard_duel")
    page.click("header nav a[href='/play/']")
    page.wait_for_url(f"{live_server.url}/play/")
    assert problems == [], problems
    page.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_charts_results_wizard_duel_and_404_read_right(
        live_server: Any, world: dict[str, Any], browser: Any, width: str) -> None:
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    problems = watch_for_errors(page)
    url = live_server.url

    # the chart: one point per ladder match, none for the validation match's score
    page.goto(f"{url}/bots/{world['climber']}/")
    page.wait_for_selector("#history-chart[data-drawn]")
    data = page.eval_on_selector("#history-data", "e => JSON.parse(e.textContent)")
    points = [p["y"] for s in data["series"] for p in s["points"]]
    assert len(points) == world["ladder_points"] and VALIDATION_SCORE not in points, points
    assert data["label"].startswith("rating")
    assert page.eval_on_selector("#history-chart", "c => c.width") > 0

    # a result names the bots where it would name seats
    page.goto(f"{url}/matches/{world['stones_match']}/")
    result = page.inner_text("#match-result")
    assert "climber v1 wins" in result and "rival v1 has no free cell" in result, result
    assert not re.search(r"\bplayer \d\b", page.inner_text("main")), page.inner_text("main")

    # Wizard Duel: what the scores count, the turns, the captions, the map on a phone
    page.goto(f"{url}/matches/{world['duel']}/#step=40&view=0")
    page.wait_for_selector(".viewer-board svg[data-view='0']")
    assert "health left" in page.inner_text("#match-result")
    assert "health left" in page.inner_text("table.players")
    layout = page.eval_on_selector(".viewer-board svg", "s => s.dataset.layout")
    assert layout == ("standing" if width == "phone" else "lying"), layout
    caption = page.inner_text(".viewer-caption")
    assert re.search(r"turn \d+ of 200", caption), caption
    panel = page.eval_on_selector_all(".viewer-board text.panel-text",
                                      "es => es.map(e => e.textContent).join(' | ')")
    assert re.search(r"opponent (not found yet|last known at \(\d+,\d+\) on turn \d+: "
                     r"(seen by a look|found by a wind scan|it blocked a move|"
                     r"it stopped a wall|hit by an attack))", panel), panel
    assert page.locator(".viewer-board .wizard .halo").count() >= 1
    # Measured once laid out, in one step: the board is drawn again when its width is
    # first known (and on each redraw a cell is briefly unmeasured), so the test waits
    # for a cell of the size it wants and only says what it saw if none comes.
    cell_width = ("() => { const r = document.querySelector('.viewer-board .cell rect'); "
                  "return r ? r.getBoundingClientRect().width : -1; }")
    try:
        page.wait_for_function(f"() => ({cell_width})() >= 20", timeout=15_000)
    except Exception:
        cell = page.evaluate(cell_width)
        raise AssertionError(f"a Wizard Duel cell is {cell:.1f} px wide at {w} px") from None
    page.locator("body").press("End")
    page.wait_for_selector(".viewer-result:not([hidden])")
    end = page.inner_text(".viewer-caption")
    moves = world["duel_moves"]
    assert f"/ {moves}" in page.inner_text(".viewer-counter")
    turns = int(re.search(r"turn (\d+) of", end)[1])
    assert turns == moves - 2 or f"{turns - (moves - 2)} skipped after looks" in end, end
    shoot(page, f"pages-duel-{width}")

    # a page that is not there is the site's own
    page.goto(f"{url}/bots/999999/")
    assert page.inner_text("h1") == "Page not found"
    assert page.query_selector("header nav a[href='/ladders/']")
    assert [p for p in problems if "404 (Not Found)" not in p] == [], problems
    page.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_upload_banner_follows_each_version_to_its_verdict(
        live_server: Any, worker: Worker, world: dict[str, Any], browser: Any,
        width: str) -> None:
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    page.set_default_timeout(20_000)
    problems = watch_for_errors(page)
    url = live_server.url
    page.goto(f"{url}/account/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", People.password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}/my/bots/")
    # no game picked for her yet: the form asks, and takes a game page's
    assert page.eval_on_selector("#id_game", "s => s.value") == ""
    page.goto(f"{url}/games/robots/")
    page.click("#start a:text-is('my bots')")
    assert page.eval_on_selector("#id_game", "s => s.value") == "robots"

    def upload(game: str, name: str, source: str) -> None:
        page.goto(f"{url}/my/bots/?game={game}")
        assert page.eval_on_selector("#id_game", "s => s.value") == game
        page.fill("#id_name", name)
        page.set_input_files("#id_file", files=[{
            "name": "main.py", "mimeType": "text/x-python", "buffer": source.encode()}])
        page.click("#upload button[type=submit]")
        page.wait_for_selector("#upload-banner")

    upload("stones", "crashy", bots.CRASH)
    banner = page.inner_text("#upload-banner")
    assert "crashy v1 uploaded; validating" in banner, banner
    page.wait_for_selector("#upload-banner.rejected", timeout=60_000)
    banner = page.inner_text("#upload-banner")
    assert "rejected: crash: exited with code 3" in banner, banner
    assert "oh no" in page.inner_text("#upload-banner pre.log")  # its log's last lines
    # the list says the same, inline, without a reload
    row = page.locator("#my-bots tr", has_text="crashy")
    row.locator("pre.log").wait_for()
    assert "oh no" in row.inner_text() and "exited with code 3" in row.inner_text()
    assert sideways(page)["page"] <= 0
    shoot(page, f"pages-banner-rejected-{width}")
    # the game picker remembers the game uploaded for last
    page.goto(f"{url}/my/bots/")
    assert page.eval_on_selector("#id_game", "s => s.value") == "stones"
    assert not page.query_selector("#upload-banner")  # once, after the upload

    # a bot for another game: its first answer is a Stones move, not a Blokus Duo one
    upload("blokus_duo", "lost", bots.STONES_ANSWER)
    page.wait_for_selector("#upload-banner.rejected", timeout=60_000)
    banner = page.inner_text("#upload-banner")
    assert ("rejected: this looks like a bot for another game: its first answer '2,2' is "
            "not a Blokus Duo move (it reads as a Stones move)") in banner, banner
    assert sideways(page)["page"] <= 0
    shoot(page, f"pages-banner-wrong-game-{width}")

    upload("g2048", "slider", bots.RANDOM)
    page.wait_for_selector("#upload-banner.active", timeout=60_000)
    assert "active (validated): it plays on the 2048 ladder now" in page.inner_text(
        "#upload-banner")
    shoot(page, f"pages-banner-active-{width}")
    assert page.eval_on_selector("#id_game", "s => s.value") == "g2048"

    # the user's page ranks each bot that plays, with its rating or score
    page.goto(f"{url}/u/alice/")
    rows = {r.split("\t")[0].split(" ·")[0].strip(): r for r in
            page.locator("table.user-bots tbody tr").all_inner_texts()}
    assert re.search(r"#\d+\s+of \d+", rows["climber"]) and "rating" in rows["climber"], rows
    assert re.search(r"#1\s+of 1", rows["slider"]) and "mean score" in rows["slider"], rows
    assert "–" in rows["crashy"], rows
    assert problems == [], problems
    page.close()


def test_the_world_is_what_the_pages_show(world: dict[str, Any]) -> None:
    """The data the browser tests read is what they think it is (a check on the fixture)."""
    assert Bot.objects.get(name=LONG_BOT).owner.username == LONG_USER
    duel = Match.objects.get(pk=world["duel"])
    assert duel.status == "finished" and json.dumps(duel.result)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_no_text_is_cut(live_server: Any, world: dict[str, Any], browser: Any,
                        width: str) -> None:
    """Issue 38 item 11: the home page's cards show bots' names whole (a long one wraps);
    the protocol page keeps "main.cpp" in one piece; a game page's code sample keeps each
    line whole, its comment beside its code (the box scrolls sideways instead)."""
    w, h = WIDTHS[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    problems = watch_for_errors(page)
    page.goto(f"{live_server.url}/")
    cut = page.eval_on_selector_all("table.leaders td.bot", """ts => ts.filter(t =>
        t.scrollWidth > t.clientWidth + 1).map(t => t.textContent)""")
    names = page.eval_on_selector_all("table.leaders td.bot a", "as => as.map(a => "
                                      "a.textContent)")
    assert LONG_BOT in names and cut == [], (names, cut)
    page.goto(f"{live_server.url}/protocol/")
    lines = page.evaluate("""() => [...document.querySelectorAll('td code')].filter(c =>
        c.textContent === 'main.cpp').map(c => c.getClientRects().length)""")
    assert lines and set(lines) == {1}, lines
    shoot(page, f"pages-protocol-files-{width}", "main table")
    page.goto(f"{live_server.url}/games/stones/")
    tops = page.evaluate("""() => { const code = [...document.querySelectorAll(
        'pre.command code')].find(c => c.textContent.includes('def choose'));
        const text = code.firstChild; const start = text.data.indexOf('def choose');
        const range = document.createRange(); range.setStart(text, start);
        range.setEnd(text, text.data.indexOf('\\n', start));
        return [...range.getClientRects()].map(r => Math.round(r.top)); }""")
    assert len(set(tops)) == 1, f"the line with its comment wraps: {tops}"
    assert page.evaluate("document.documentElement.scrollWidth") <= w
    shoot(page, f"pages-code-sample-{width}", "#protocol")
    assert problems == [], problems
    context.close()
