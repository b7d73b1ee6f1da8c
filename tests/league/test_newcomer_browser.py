"""A newcomer's path with nothing but the site, in Debian's Chromium: from the home page of a
fresh league (what ``./dev up`` runs: ``manage.py up`` on the embedded default, demo bots
playing), following only the site's links and downloads, never a file of the repository:
the games, the Stones page, its Python starter downloaded as a zip, sign-up, "my bots" with
the game already picked, the zip uploaded as it is, the banner following it to "validated",
and the bot on the Stones ladder with its rank, then its rating once it has played."""

from __future__ import annotations

import re
import signal
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.browser import SHOTS, chromium, watch_for_errors
from tests.league.conftest import wait_for
from tests.league.up_league import free_port, league_up

pytestmark = pytest.mark.slow
PASSWORD = "Newcomer-pass-2026"


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def test_a_newcomer_gets_from_the_home_page_to_a_ranked_bot(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    out = tmp_path / "up.out"
    # the demo plays on, but at a pace a shared 2-core machine keeps up with
    with league_up([sys.executable, "manage.py", "up", "--port", str(port)], data, out,
                   LEAGUE_MATCHMAKING_SECONDS="2", LEAGUE_MATCHES_PER_MINUTE="20") as up:
        url = f"http://127.0.0.1:{port}"
        wait_for(lambda: url in out.read_text() and answers(url), 240,
                 "the league to print its address", out.read_text)
        with chromium() as browser:
            walk(browser, url, tmp_path)
        up.send_signal(signal.SIGINT)
        assert up.wait(60) == 0, out.read_text()


def walk(browser: object, url: str, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page.set_default_timeout(30_000)
    problems = watch_for_errors(page)

    # the home page says what the league is and leads to the games
    page.goto(url)
    assert "league for game-playing programs" in page.inner_text(".intro")
    page.click(".intro a:text-is('game')")
    page.wait_for_url(f"{url}/games/")
    page.click("#game-stones a:text-is('Rules and starters')")
    page.wait_for_url(f"{url}/games/stones/")
    assert "Move notation" in page.inner_text("#rules")
    page.wait_for_selector("[data-picture][data-drawn]")  # a picture of a position

    # the Python starter, as the site offers it
    with page.expect_download() as download:
        page.click("#start a.starter[data-language='Python']")
    starter = tmp_path / download.value.suggested_filename
    download.value.save_as(starter)
    assert starter.name == "stones.zip" and starter.stat().st_size > 500

    # sign up from the game page: "my bots" with Stones picked; and again from the game page
    page.click("#start a:text-is('Sign up')")
    page.wait_for_url(f"{url}/account/signup/?game=stones")
    page.fill("#id_username", "newcomer")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}/my/bots/?game=stones")
    assert page.eval_on_selector("#id_game", "s => s.value") == "stones"
    page.click("header nav a:text-is('games')")
    page.click("#game-stones a:text-is('Rules and starters')")
    page.click("#start a:text-is('my bots')")
    page.wait_for_url(f"{url}/my/bots/?game=stones")
    assert page.eval_on_selector("#id_game", "s => s.value") == "stones"

    # the zip uploaded as it is; the banner follows it to its verdict
    page.fill("#id_name", "first-bot")
    page.set_input_files("#id_file", str(starter))
    page.click("#upload button[type=submit]")
    page.wait_for_selector("#upload-banner")
    page.wait_for_selector("#upload-banner.active", timeout=240_000)
    assert "active (validated): it plays on the Stones ladder now" in page.inner_text(
        "#upload-banner")

    # on the ladder, reached by the top bar: ranked, with a rating
    page.click("header nav a:text-is('ladders')")
    page.click("#ladder-stones h2 a:text-is('Stones')")
    page.wait_for_url(f"{url}/ladders/stones/")
    row = page.locator("table.board tbody tr", has_text="first-bot")
    # (a new version is provisional, "placing: N/8 games", its rating marked "?")
    pattern = re.compile(r"(\d+)\s+first-bot v1\s+(?:provisional[^\n]*\s+)?newcomer\s+"
                         r"(-?\d+\.\d)\??\s+μ \S+ σ \S+\s+(\d+)\s")
    assert pattern.match(row.inner_text()), row.inner_text()  # on the board from the start

    def rated() -> bool:  # and rated by its first ladder games, as the page shows on a reload
        page.reload()
        return int(pattern.match(row.inner_text())[3]) > 0

    wait_for(rated, 180, "the new bot's first ladder games", row.inner_text)
    rank, rating, played = pattern.match(row.inner_text()).groups()
    assert int(rank) >= 1 and int(played) >= 1 and float(rating) != 0.0, row.inner_text()
    page.screenshot(path=str(SHOTS / "newcomer-ladder.png"), full_page=True)
    assert problems == [], problems
    page.close()
