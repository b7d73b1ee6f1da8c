"""``python -m sandbox``: one-line errors, --show, --games with a summary, --replay and show."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sandbox.conftest import BOTS

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sandbox", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize(("args", "message"), [
    (["play", "nosuchgame", "x.py"], "unknown game 'nosuchgame'"),
    (["play", "stones", "/no/bot.py", "builtin:random"], "no such file or folder"),
    (["play", "stones", "builtin:random"], "stones needs 2 bot(s), got 1"),
    (["play", "stones", "builtin:random", "builtin:random", "--options", '{"size": 99}'],
     "option 'size'"),
    (["show", "/no/such/record.json"], "no such file"),
])
def test_mistakes_are_one_line_errors(args: list[str], message: str) -> None:
    done = cli(*args)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and message in lines[0], done.stderr


def test_show_prints_the_game_and_says_which_sandbox() -> None:
    done = cli("play", "stones", str(BOTS / "first.py"), "builtin:random", "--show",
               "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "process backend: bwrap" in done.stderr
    assert "player 0 plays 0,0" in done.stdout
    assert " 0 # x" in done.stdout
    assert "wins" in done.stdout


def test_games_ends_with_a_summary_table_and_saves_replays(tmp_path: Path) -> None:
    replay = tmp_path / "games.jsonl"
    done = cli("play", "stones", str(BOTS / "first.py"), "builtin:perfect", "--games", "4",
               "--replay", str(replay))
    assert done.returncode == 0, done.stderr
    for word in ("wins", "losses", "forfeits", "time per move", "first.py", "builtin:perfect"):
        assert word in done.stdout
    records = [json.loads(line) for line in replay.read_text().splitlines()]
    assert len(records) == 4
    assert {r["players"][0]["name"] for r in records} == {"first.py", "builtin:perfect"}
    shown = cli("show", str(replay))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count("seed") == 4


def test_the_summary_has_a_mean_score_only_for_games_decided_by_score() -> None:
    stones = cli("play", "stones", str(BOTS / "first.py"), "builtin:random", "--games", "2")
    assert stones.returncode == 0, stones.stderr
    assert "wins" in stones.stdout and "mean score" not in stones.stdout, stones.stdout
    solo = cli("play", "g2048", "builtin:random", "--games", "2",
               "--options", '{"max_turns": 20}')
    assert solo.returncode == 0, solo.stderr
    assert "mean score" in solo.stdout, solo.stdout


def test_forfeits_are_counted_by_reason(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from botlib import run\nrun(lambda turn: 'nonsense')\n")
    done = cli("play", "stones", str(bad), str(BOTS / "first.py"), "--games", "2")
    assert done.returncode == 0, done.stderr
    assert "malformed 2" in done.stdout
