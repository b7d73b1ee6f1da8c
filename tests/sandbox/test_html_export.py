"""Self-contained replays: ``python -m sandbox play ... --html FILE`` and ``show ... --html``
write one HTML file that opens from disk in a browser with the network off, and draws the
engine's frames."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.records import engine_record
from replay import MatchRecord
from replay.frames import SPECTATOR
from replay.html_export import all_frames, replay_html
from tests.browser import chromium, shoot, watch_for_errors
from tests.viewer_checks import check, wait_drawn

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
    assert re.findall(r'from "(\.[^"]*)"', text) == [], "a relative import is left"
    data = text.split('id="viewer-data">')[1].split("</script>")[0]
    frames = json.loads(data)["frames"]
    assert frames == all_frames_of(record)


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
            assert record.result.summary() in page.inner_text(".viewer-result")
            page.click("button[data-action=toggle]")  # at the end: plays from the start
            page.wait_for_function(
                "() => Number(document.querySelector('#viewer').dataset.step) >= 2")
            shoot(page, f"viewer-offline-{path.stem}")
            assert problems == [], problems
            page.context.close()


def test_several_games_write_one_file_each(tmp_path: Path) -> None:
    target = tmp_path / "runs.html"
    done = cli("play", "g2048", "builtin:greedy", "--games", "2", "--html", str(target))
    assert done.returncode == 0, done.stderr
    assert target.is_file() and (tmp_path / "runs-2.html").is_file()
