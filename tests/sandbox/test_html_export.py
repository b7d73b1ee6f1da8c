"""Self-contained replays: ``python -m sandbox play ... --html FILE`` and ``show ... --html``
write one HTML file that opens from disk in a browser with the network off, and draws the
engine's frames. The viewer's modules are in it unmodified: an import map resolves their bare
specifiers to ``data:`` URLs of the files' bytes."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import games
import viewer
from benchmarks.records import engine_record
from replay import MatchRecord
from replay.frames import SPECTATOR
from replay.html_export import all_frames, replay_html
from tests.browser import chromium, shoot, watch_for_errors
from tests.viewer_checks import check, shown_summary, wait_drawn

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sandbox", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)


def open_offline(browser: Any, path: Path, step: int) -> tuple[Any, list[str]]:
    """The file in a browser with no network. Returns the page and a list that collects its
    errors and any request for something outside the file (there must be none)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=True)
    page = context.new_page()
    problems = watch_for_errors(page)
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:"))
            else problems.append(f"request for {r.url}"))
    page.goto(f"{path.as_uri()}#step={step}")
    return page, problems


def test_the_file_inlines_every_module_and_breaks_no_script_element(tmp_path: Path) -> None:
    record = engine_record("stones", seed=3)
    record.players[0].log = "</script><script>alert(1)</script>\n"
    record.players[0].log_turns = [0]
    text = replay_html(record)
    assert "</script><script>alert(1)" not in text
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?!data:)""", text), "a link to a file"
    data = text.split('id="viewer-data">')[1].split("</script>")[0]
    frames = json.loads(data)["frames"]
    assert frames == all_frames_of(record)


def import_map(text: str) -> dict[str, str]:
    maps = re.findall(r'<script type="importmap">(.*?)</script>', text, re.S)
    assert len(maps) == 1, "one import map, before any module"
    assert text.index('<script type="importmap">') < text.index('<script type="module">')
    imports: dict[str, str] = json.loads(maps[0])["imports"]
    return imports


@pytest.mark.parametrize("game", games.game_ids())
def test_the_file_holds_each_module_it_needs_byte_for_byte(game: str) -> None:
    """Every module but the other games' own, each exactly the file the site serves (a data:
    URL of its bytes): nothing in a module is rewritten, so what runs from disk is what runs
    on the site."""
    record = engine_record(game, seed=3, player=CHEAP_PLAYERS.get(game))
    imports = import_map(replay_html(record))
    others = {f"games/{g}.js" for g in games.game_ids() if g != game}
    wanted = {str(name) for name in viewer.modules()} - others
    assert set(imports) == {viewer.SPECIFIER + name for name in wanted}
    assert f"games/{game}.js" in wanted and "games/common.js" in wanted
    for name in wanted:
        url = imports[viewer.SPECIFIER + name]
        prefix = "data:text/javascript;base64,"
        assert url.startswith(prefix), name
        assert base64.b64decode(url[len(prefix):]) == (viewer.STATIC / name).read_bytes(), name


def test_the_modules_import_each_other_only_by_the_viewers_bare_specifiers() -> None:
    """A relative import would not resolve inside a data: module, and a bare specifier
    outside ``botleague-viewer/`` would resolve to nothing the file holds."""
    statement = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'`]([^"'`]+)["'`]""")
    for name in viewer.modules():
        source = (viewer.STATIC / name).read_text(encoding="utf-8")
        for spec in statement.findall(source):
            assert spec.startswith(viewer.SPECIFIER), (str(name), spec)


CHEAP_PLAYERS = {"g2048": "greedy"}
"""The strongest 2048 player searches for a minute; a short run is enough here."""


def all_frames_of(record: MatchRecord) -> dict[str, list[dict[str, Any]]]:
    from replay.frames import FrameSource

    return all_frames(FrameSource.from_record(record))


@pytest.mark.slow
def test_play_and_show_write_files_that_open_offline_and_draw_the_engines_frames(
        tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    played = tmp_path / "played.html"
    done = cli("play", "wizard_duel", "builtin:hunter", "builtin:random", "--seed", "5",
               "--move-time", "0.5", "--replay", str(saved), "--html", str(played))
    assert done.returncode == 0, done.stderr
    assert f"replay viewer written to {played}" in done.stderr
    shown = tmp_path / "shown.html"
    done = cli("show", str(saved), "--html", str(shown))
    assert done.returncode == 0, done.stderr
    record = MatchRecord.load(saved)
    frames = {view: all_frames_of(record)[str(view)] for view in (SPECTATOR, 0, 1)}
    last = len(frames[SPECTATOR]) - 1

    with chromium() as browser:
        for path in (played, shown):
            page, problems = open_offline(browser, path, step=10)
            check("wizard_duel", frames[SPECTATOR][10], wait_drawn(page, 10))
            page.keyboard.press("ArrowRight")
            check("wizard_duel", frames[SPECTATOR][11], wait_drawn(page, 11))
            page.click("[data-view-choice='1']")
            check("wizard_duel", frames[1][11], wait_drawn(page, 11, "1"), "1")
            page.click("[data-view-choice='spectator']")
            page.locator("body").press("End")
            check("wizard_duel", frames[SPECTATOR][last], wait_drawn(page, last))
            assert record.result is not None
            assert shown_summary(record) in page.inner_text(".viewer-result")
            page.click("button[data-action=toggle]")  # at the end: plays from the start
            page.wait_for_function(
                "() => Number(document.querySelector('#viewer').dataset.step) >= 2")
            shoot(page, f"viewer-offline-{path.stem}")
            assert problems == [], problems
            page.context.close()


def test_each_games_file_opens_from_disk_offline_and_draws_the_engines_frames(
        tmp_path: Path) -> None:
    """Every game's file, opened from a file:// URL with the network off: the board drawn at
    a step and at the end as the engine derives it, no console error, no request."""
    with chromium() as browser:
        for game in games.game_ids():
            record = engine_record(game, seed=3, player=CHEAP_PLAYERS.get(game))
            path = tmp_path / f"{game}.html"
            path.write_text(replay_html(record), encoding="utf-8")
            frames = all_frames_of(record)[SPECTATOR]
            last = len(frames) - 1
            page, problems = open_offline(browser, path, step=min(3, last))
            check(game, frames[min(3, last)], wait_drawn(page, min(3, last)))
            page.locator("body").press("End")
            check(game, frames[last], wait_drawn(page, last))
            assert record.result is not None
            assert shown_summary(record) in page.inner_text(".viewer-result")
            assert problems == [], (game, problems)
            page.context.close()


def test_several_games_write_one_file_each(tmp_path: Path) -> None:
    target = tmp_path / "runs.html"
    done = cli("play", "g2048", "builtin:greedy", "--games", "2", "--html", str(target))
    assert done.returncode == 0, done.stderr
    assert target.is_file() and (tmp_path / "runs-2.html").is_file()
