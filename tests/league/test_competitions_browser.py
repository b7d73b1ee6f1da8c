"""The competitions' pages in a real browser (Debian's Chromium through Playwright) against the
live server, at a desktop (1280 px) and a phone (390 px) width: the page never scrolls
sideways, the key columns show, and no console error or CSP violation happens.

The gallery test plays its tournaments here, without workers (``tournament_world``); the
others run real Celery workers while the test plays the beat (``competitions_tick`` in a
thread) and watch the pages follow the play without a reload. Screenshots of every page at
both widths go to var/test-artifacts/competitions-*.png."""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from league.competitions.models import Challenge, Tournament
from league.competitions.progress import competitions_tick
from league.competitions.services import challenge_create
from league.ladders.models import Ladder
from tests.browser import SHOTS, watch_for_errors
from tests.league import bots
from tests.league.conftest import People, Worker
from tests.league.pages import EVIL, active
from tests.league.tournament_world import (
    field,
    finish_open,
    open_tournament,
    play_rounds,
    start,
)

pytestmark = pytest.mark.slow

WIDTHS = [("desktop", 1280, 900), ("phone", 390, 844)]


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width[0]} > {width[1]} px"


def visible_columns(page: Any, table: str) -> list[str]:
    """The header cells of ``table`` a reader can see."""
    return page.eval_on_selector(table, """t => Array.from(t.querySelectorAll("thead th"))
        .filter(th => th.offsetParent !== null && th.getBoundingClientRect().width > 0)
        .map(th => th.textContent.trim())""")


def at_both_widths(page: Any, name: str, table: str | None = None,
                   key_columns: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """Check and photograph the page at each width; the viewport is left at desktop. Returns
    the visible columns of ``table`` per width."""
    seen = {}
    for label, width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        no_sideways_scroll(page)
        if table:
            seen[label] = visible_columns(page, table)
            for column in key_columns:
                assert column in seen[label], f"{name} at {width} px: no {column!r} column, " \
                    f"only {seen[label]}"
        page.screenshot(path=str(SHOTS / f"competitions-{name}-{label}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    return seen


CHIPS = """() => [...document.querySelectorAll("#rounds li.series")].flatMap((line) => {
  const chips = [...line.querySelectorAll(".game")];
  if (!chips.length) return [];
  const after = line.querySelector("small");  // "drawn", "decided by an extra game"
  return chips.map((chip) => {
    const text = document.createRange();
    text.selectNodeContents(chip);
    const last = chips[chips.length - 1].getBoundingClientRect();
    return { label: chip.textContent, width: chip.getBoundingClientRect().width,
      text: text.getBoundingClientRect().width,
      gap: after ? after.getBoundingClientRect().left - last.right : 0 };
  });
})"""


def chips_fit_their_text(page: Any) -> None:
    """Each game's chip in the rounds is about as wide as its result (the rounds' list once
    took the games page's grid of 20rem cards: wide empty boxes, "drawn" far to the right),
    at both widths."""
    page.evaluate("document.querySelectorAll('#rounds details').forEach(d => d.open = true)")
    for _, width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        chips = page.evaluate(CHIPS)
        assert chips, "no game in the rounds"
        wide = [c for c in chips if c["width"] > max(3 * c["text"], 40)]
        assert wide == [], f"chips wider than their text at {width} px: {wide[:3]}"
        far = [c for c in chips if c["gap"] > 30]
        assert far == [], f"a series' note far from its games at {width} px: {far[:3]}"
    page.set_viewport_size({"width": 1280, "height": 900})


def desktop_page(browser: Any) -> tuple[Any, list[str]]:
    """A new page at the desktop width (``at_both_widths`` comes back to it), patient enough
    for a live league, and its console errors as they come."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(20_000)
    return page, watch_for_errors(page)


def log_in(page: Any, url: str, username: str, password: str) -> None:
    page.goto(f"{url}/account/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda u: "/account/login/" not in u)


@contextmanager
def beat(every: float = 0.3) -> Iterator[list[BaseException]]:
    """The beat, played by a thread of the test while the browser watches; errors are kept
    for the test to check."""
    stop = threading.Event()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            while not stop.is_set():
                try:
                    competitions_tick()
                except Exception as error:  # reported by the test
                    errors.append(error)
                stop.wait(every)
        finally:
            connection.close()

    thread = threading.Thread(target=run, name="beat", daemon=True)
    thread.start()
    try:
        yield errors
    finally:
        stop.set()
        thread.join(30)


# -- every page, played without workers ------------------------------------------------------

@dataclass
class Gallery:
    finished_swiss: Tournament
    double: Tournament
    single: Tournament
    running: Tournament
    upcoming: Tournament
    scored: Tournament
    challenge: Challenge
    bot_id: int
    rival_id: int


@pytest.fixture
def gallery(people: People) -> Gallery:
    """Tournaments in every state and a finished challenge, made before the browser starts
    (ORM calls inside Playwright's loop would open a connection nobody closes)."""
    alice = field(people.alice, 4, prefix="alpha-centauri-")
    bob = field(people.bob, 3, prefix="b")
    swiss = play_rounds(start(open_tournament(people.alice, alice + bob, "swiss",
                                              name="Autumn Swiss", rounds=3)))
    double = play_rounds(start(open_tournament(people.sam, alice + bob,
                                               "double_elimination", name="Double trouble",
                                               official=True, games_per_series=1)))
    single = play_rounds(start(open_tournament(people.sam, alice + bob[:2],
                                               "single_elimination", name="Knock-out",
                                               third_place=True, games_per_series=2)))
    upcoming = open_tournament(people.alice, alice[:2] + bob[:1], "single_elimination",
                               name="Coming soon", third_place=True,
                               description=f"Friendly knock-out. {EVIL}")
    solo = field(people.alice, 2, game="g2048", prefix="slide") + field(
        people.bob, 1, game="g2048", prefix="tile")
    scored = play_rounds(start(open_tournament(people.alice, solo, "scored", game="g2048",
                                               name="2048 open", games_per_series=3)))
    mine = active(people.bob, "challenger", source=bots.FIRST)
    made = challenge_create(user=people.bob, bot=mine.bot, opponent=alice[0].bot,
                            games_count=3)
    competitions_tick()
    finish_open()
    competitions_tick()
    # last: its open games hold the competitions' share of the workers
    running = play_rounds(start(open_tournament(people.bob, alice + bob, "round_robin",
                                                name="Round and round")), rounds=2)
    assert [swiss.state, double.state, single.state, scored.state] == ["finished"] * 4
    return Gallery(swiss, double, single, running, upcoming, scored, made, alice[0].bot_id,
                   mine.bot_id)


def test_every_competition_page_at_desktop_and_phone_widths(
        live_server: Any, gallery: Gallery, people: People, viewer_browser: Any) -> None:
    page, problems = desktop_page(viewer_browser)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    url = live_server.url

    page.goto(f"{url}/")
    page.click("header nav >> text=tournaments")
    page.wait_for_selector("#running")
    assert "Round and round" in page.inner_text("#running")
    assert "Coming soon" in page.inner_text("#upcoming")
    assert "official" in page.inner_text("#finished").lower()
    at_both_widths(page, "list", "#finished table", ("tournament", "winner"))

    page.goto(f"{url}/tournaments/{gallery.finished_swiss.pk}/")
    page.wait_for_selector("#standings")
    assert "Winner" in page.inner_text("#state")
    seen = at_both_widths(page, "swiss-finished", "#standings table", ("#", "bot", "points"))
    chips_fit_their_text(page)
    assert "Buchholz" in seen["desktop"] and "Buchholz" not in seen["phone"]

    page.goto(f"{url}/tournaments/{gallery.double.pk}/")
    page.wait_for_selector("#bracket")
    for section in ["Winners' bracket", "Losers' bracket", "Grand final"]:
        assert section in page.inner_text("#bracket")
    assert page.locator("#bracket .side.won").count() > 5
    at_both_widths(page, "double-elimination", "#standings table", ("#", "bot", "won–lost"))

    page.goto(f"{url}/tournaments/{gallery.single.pk}/")
    page.wait_for_selector("#bracket")
    assert "Third place" in page.inner_text("#bracket")
    assert "bye" in page.inner_text("#bracket")  # six entries in eight places
    at_both_widths(page, "single-elimination", "#standings table", ("#", "bot", "won–lost"))
    # issue 38 item 10: a bye said beside the record, not counted into a "won" beside it;
    # the places' rule names the third-place match the table plays
    records = page.eval_on_selector_all("#standings td.record", "ts => ts.map(t => "
                                        "t.textContent)")
    assert any(re.fullmatch(r"\d–\d, 1 bye", r) for r in records), records
    assert "won" not in visible_columns(page, "#standings table")
    assert "third and fourth from the match for third place" in page.inner_text("#standings")
    readable_bracket(page)
    # the bracket's lines join: each pair's bar runs from its two nodes' middles (a quarter
    # and three quarters down it) and its middle is level with the next round's node
    off = page.evaluate("""() => { const out = [];
        for (const column of document.querySelectorAll('#bracket-W .bracket-column')) {
          const next = column.nextElementSibling; if (!next) continue;
          const targets = [...next.querySelectorAll('.node')];
          [...column.querySelectorAll('.pair.joined')].forEach((pair, i) => {
            const p = pair.getBoundingClientRect(); const mid = (r) => (r.top + r.bottom) / 2;
            const nodes = [...pair.querySelectorAll('.node')].map((n) =>
              mid(n.getBoundingClientRect()));
            out.push(Math.abs(nodes[0] - (p.top + p.height / 4)),
                     Math.abs(nodes[1] - (p.bottom - p.height / 4)),
                     Math.abs(mid(targets[i].getBoundingClientRect()) - mid(p))); }); }
        return out; }""")
    assert off and max(off) < 1.5, off

    page.goto(f"{url}/tournaments/{gallery.running.pk}/")
    page.wait_for_selector("#rounds")
    assert "Round 3 of 7" in page.inner_text("#state")
    at_both_widths(page, "round-robin-running", "#standings table", ("#", "bot", "points"))

    page.goto(f"{url}/tournaments/{gallery.scored.pk}/")
    page.wait_for_selector("#standings")
    at_both_widths(page, "scored", "#standings table", ("#", "bot", "mean"))

    page.goto(f"{url}/tournaments/{gallery.upcoming.pk}/")
    page.wait_for_selector("#entries")
    assert "<script>" in page.inner_text("#about")  # the description, shown as text
    at_both_widths(page, "upcoming-anonymous", "#entries table", ("bot", "owner"))

    page.goto(f"{url}/challenges/{gallery.challenge.pk}/")
    page.wait_for_selector("#games")
    at_both_widths(page, "challenge", "#games table", ("#", "result", "match"))

    log_in(page, url, "bob", people.password)
    page.goto(f"{url}/tournaments/{gallery.upcoming.pk}/")
    page.wait_for_selector("#enter-form")
    at_both_widths(page, "upcoming-signed-in", "#entries table", ("bot", "owner"))

    page.goto(f"{url}/bots/{gallery.bot_id}/")
    page.wait_for_selector("#challenge form")
    assert "Autumn Swiss" in page.inner_text("#bot-tournaments")
    assert page.locator("#bot-challenges tbody tr").count() == 1
    at_both_widths(page, "bot", "#bot-tournaments table", ("tournament", "place"))
    # in its half-width card the table fits: names wrap rather than the start being cut off
    assert page.eval_on_selector("#bot-tournaments .scroll",
                                 "s => s.scrollWidth <= s.clientWidth"), "the table scrolls"

    page.goto(f"{url}/ladders/stones/")
    page.wait_for_selector("#challenge form")
    at_both_widths(page, "ladder")

    # the forms refused (400): the browser logs each answer; nothing else may be logged
    seen_before = len(problems)
    page.goto(f"{url}/bots/{gallery.bot_id}/")
    page.fill("#challenge input[name=games]", "11")
    page.eval_on_selector("#challenge input[name=games]", "i => i.removeAttribute('max')")
    page.click("#challenge button[type=submit]")
    page.wait_for_selector("#challenge .errorlist")
    assert "less than or equal to 10" in page.inner_text("#challenge")
    at_both_widths(page, "challenge-form-errors")

    page.goto(f"{url}/tournaments/new/")
    page.fill("#id_name", "Spring cup")
    page.fill("#id_registration_closes", utc_input(3 * 3600))
    page.fill("#id_starts_at", utc_input(3600))
    page.click("#new-tournament button[type=submit]")
    page.wait_for_selector("#new-tournament .errorlist")
    assert '"Starts" (starts_at) is before "Registration closes"' in page.inner_text(
        "#new-tournament")
    at_both_widths(page, "new-errors")
    refused = problems[seen_before:]
    assert len(refused) == 2 and all("status of 400" in p for p in refused), refused
    del problems[seen_before:]

    page.goto(f"{url}/tournaments/new/")
    page.select_option("#id_game", "g2048")
    assert page.eval_on_selector("#id_format", "s => s.value") == "scored"
    assert page.is_visible("#field-rounds") and not page.is_visible("#field-third_place")
    page.select_option("#id_game", "stones")
    page.select_option("#id_format", "single_elimination")
    assert page.is_visible("#field-third_place") and not page.is_visible("#field-rounds")
    at_both_widths(page, "new")

    assert dialogs == [], dialogs
    assert problems == [], problems
    page.close()


def readable_bracket(page: Any) -> None:
    """At a phone's width each node of the bracket fits the screen, its names unclipped."""
    page.set_viewport_size({"width": 390, "height": 844})
    clipped = page.eval_on_selector_all("#bracket .node", """nodes => nodes.filter(n => {
        const box = n.getBoundingClientRect();
        return box.left < 0 || box.right > window.innerWidth
            || Array.from(n.querySelectorAll(".name"))
                .some(name => name.scrollWidth > name.clientWidth + 1);
    }).map(n => n.id)""")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert clipped == [], f"bracket nodes cut off at 390 px: {clipped}"


# -- played by real workers, followed live -----------------------------------------------------

def utc_input(seconds: float) -> str:
    """A time ``seconds`` from now as the form's datetime-local input takes it (UTC)."""
    return (timezone.now() + dt.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S")


def mark_page(page: Any) -> None:
    """A mark that a reload would wipe out, and a log of what the live parts showed: each
    state line and each standings' points (or record) column, as they changed."""
    page.evaluate("""() => {
        window.__notReloaded = true;
        window.__states = [];
        window.__tables = [];
        const last = (list) => list[list.length - 1];
        const note = () => {
            const state = document.querySelector("#state");
            if (state && last(window.__states) !== state.innerText)
                window.__states.push(state.innerText);
            const points = Array.from(document.querySelectorAll(
                "#standings td.points, #standings td.record"))
                .map((td) => td.textContent.trim()).join(" ");
            if (points && last(window.__tables) !== points) window.__tables.push(points);
        };
        new MutationObserver(note).observe(document.querySelector("[data-live]"),
                                           { childList: true, subtree: true });
        note();
    }""")


def seen_live(page: Any) -> tuple[list[str], list[str]]:
    return page.evaluate("[window.__states, window.__tables]")


def not_reloaded(page: Any) -> bool:
    return page.evaluate("window.__notReloaded === true")


@pytest.fixture
def four_bots(people: People, ladders: dict[str, Ladder]) -> list[int]:
    """alice's four Stones bots, made before the browser starts."""
    return [active(people.alice, f"live{i}", source=bots.SLOW).bot_id for i in range(4)]


def test_a_tournament_made_in_the_form_entered_and_followed_live_to_its_end(
        live_server: Any, worker: Worker, people: People, four_bots: list[int],
        viewer_browser: Any) -> None:
    page, problems = desktop_page(viewer_browser)
    url = live_server.url
    log_in(page, url, "alice", people.password)

    page.goto(f"{url}/tournaments/new/")
    page.fill("#id_name", "Live cup")
    page.select_option("#id_game", "stones")
    page.select_option("#id_format", "swiss")
    page.fill("#id_games", "4")  # a round long enough to be watched
    page.fill("#id_rounds", "2")
    page.fill("#id_field_limit", "8")
    page.fill("#id_registration_closes", utc_input(25))
    page.fill("#id_starts_at", utc_input(25))
    page.fill("#id_description", "Four bots, two rounds.")
    page.click("#new-tournament button[type=submit]")
    page.wait_for_selector("text=Live cup is open for registration.")
    tournament_url = page.url
    for _ in four_bots:
        page.click("#enter-form button[type=submit]")  # the first bot not entered yet
        page.wait_for_selector("text=is entered in Live cup")
    assert page.locator("#entries tbody tr").count() == 4
    assert page.locator("#enter-form").count() == 0  # no bot of alice's left to enter
    at_both_widths(page, "live-registration", "#entries table", ("bot", "owner"))

    page.goto(tournament_url)
    mark_page(page)
    with beat() as errors:
        # the start, round 1 and its games appear without a reload
        page.wait_for_selector("#rounds #round-1", timeout=60_000)
        page.wait_for_selector("#standings")
        at_both_widths(page, "live-round-1", "#standings table", ("#", "bot", "points"))
        page.wait_for_selector("#winner", timeout=180_000)
    assert errors == [], errors
    assert not_reloaded(page), "the page reloaded"
    states, tables = seen_live(page)
    assert any("Registration is closed" in s or "Registration is open" in s for s in states)
    assert any("Round 1 of 2" in s for s in states), states
    assert "Finished" in states[-1] and "Winner" in states[-1], states
    assert page.locator("#entries").count() == 0  # the entries' card left at the start
    assert len(tables) >= 2 and tables[0] != tables[-1], tables  # the table moved
    assert page.get_attribute("#tournament", "data-done") == "true"
    points = page.eval_on_selector_all("#standings td.points", "tds => tds.map(td => "
                                       "td.textContent.trim())")
    assert len(points) == 4 and points[0] != "0"
    seen = at_both_widths(page, "live-finished", "#standings table", ("#", "bot", "points"))
    assert "Buchholz" in seen["desktop"] and "Buchholz" not in seen["phone"]
    # a game of the last round opens on its match page, its replay drawn
    page.click("#round-2 a.game >> nth=0")
    page.wait_for_selector(".viewer-board svg")
    assert problems == [], problems
    page.close()


@pytest.fixture
def double_elimination(people: People, ladders: dict[str, Ladder]) -> int:
    """Five entries of alice's and bob's in a double elimination starting now, made before
    the browser starts."""
    versions = [active(people.alice if i % 2 else people.bob, f"elim{i}",
                       source=bots.SLOW) for i in range(5)]
    t = open_tournament(people.sam, versions, "double_elimination", name="Live double",
                        games_per_series=1, official=True)
    past = timezone.now() - dt.timedelta(seconds=1)
    Tournament.objects.filter(pk=t.pk).update(registration_closes=past, starts_at=past)
    return t.pk


def test_a_double_elimination_bracket_fills_live_and_opens_a_games_replay(
        live_server: Any, worker: Worker, double_elimination: int,
        viewer_browser: Any) -> None:
    page, problems = desktop_page(viewer_browser)
    page.goto(f"{live_server.url}/tournaments/{double_elimination}/")
    mark_page(page)
    with beat() as errors:
        page.wait_for_selector("#bracket #node-W1\\.1", timeout=60_000)
        at_both_widths(page, "live-bracket-running", "#standings table",
                       ("#", "bot", "won–lost"))
        page.wait_for_selector("#bracket-L .side.won", timeout=180_000)
        page.wait_for_selector("#winner", timeout=240_000)
    assert errors == [], errors
    assert not_reloaded(page), "the page reloaded"
    states, tables = seen_live(page)
    rounds = {m.group(0) for s in states
              for m in [re.search(r"Round \d+ of \d+|Bracket reset", s)] if m}
    assert len(rounds) >= 2, states  # the page followed the bracket from round to round
    assert len(tables) >= 2, tables
    bracket = page.inner_text("#bracket")
    for section in ["Winners' bracket", "Losers' bracket", "Grand final"]:
        assert section in bracket
    assert "bye" in bracket  # five entries in eight places
    champion = page.inner_text("#winner a")
    # the grand final's winner, or the reset's when the losers' bracket won the first one
    finals = page.locator("#node-GF .side.won, #node-GF2 .side.won").all_inner_texts()
    assert finals and champion in finals[-1], (champion, finals)
    at_both_widths(page, "live-bracket-finished", "#standings table", ("#", "bot", "won–lost"))
    # the bracket scrolls in its own box on a desktop, never the page; on a phone it stacks
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.eval_on_selector("#bracket-W .bracket", "b => getComputedStyle(b)"
                                 ".flexDirection") == "column"
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#node-GF .node-games a.game")
    page.wait_for_selector(".viewer-board svg")
    assert "Live double: round" in page.inner_text("#competition")
    page.wait_for_timeout(300)
    at_both_widths(page, "live-bracket-replay")
    assert problems == [], problems
    page.close()


@pytest.fixture
def rivals(people: People, ladders: dict[str, Ladder]) -> tuple[int, int]:
    """alice's challenger and bob's defender, made before the browser starts."""
    return (active(people.alice, "challenger", source=bots.FIRST).bot_id,
            active(people.bob, "defender", source=bots.RANDOM).bot_id)


def test_a_challenge_from_a_bots_page_is_followed_to_its_end(
        live_server: Any, worker: Worker, people: People, rivals: tuple[int, int],
        viewer_browser: Any) -> None:
    mine, theirs = rivals
    page, problems = desktop_page(viewer_browser)
    url = live_server.url
    log_in(page, url, "alice", people.password)
    page.goto(f"{url}/bots/{theirs}/")
    at_both_widths(page, "challenge-form")
    page.select_option("#challenge select[name=bot]", str(mine))
    page.fill("#challenge input[name=games]", "3")
    page.click("#challenge button[type=submit]")
    page.wait_for_url("**/challenges/*/")
    mark_page(page)
    assert "challenger" in page.inner_text("#summary")
    with beat() as errors:
        page.wait_for_selector("#games a:has-text('replay')", timeout=60_000)
        page.wait_for_selector("#challenge[data-done=true]", timeout=120_000)
    assert errors == [], errors
    assert not_reloaded(page), "the page reloaded"
    assert "finished" in page.inner_text("#summary").lower()
    tally = page.eval_on_selector_all("#tally .big", "spans => spans.map(s => "
                                      "Number(s.textContent))")
    draws = page.inner_text("#tally small") if page.locator("#tally small").count() else "0"
    assert sum(tally) + int(draws.split()[0]) == 3
    assert page.locator("#games a:has-text('replay')").count() == 3
    at_both_widths(page, "challenge-finished", "#games table", ("#", "result", "match"))
    page.goto(f"{url}/bots/{mine}/")
    assert "made to defender" in page.inner_text("#bot-challenges")
    assert problems == [], problems
    page.close()
