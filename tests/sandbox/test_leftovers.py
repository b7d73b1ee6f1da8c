"""Stopping a referee, and the leftover check itself.

A match stopped by Ctrl-C, SIGTERM or SIGHUP removes its bots and folder; one killed outright
leaves a folder that the next match sweeps. Another live match on the machine is not a
leftover of ours.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.backends.docker import leftover_containers
from sandbox.slots import SLOT_COUNT, UID_BASE
from tests.sandbox.conftest import (
    BOTS,
    assert_worker_clean,
    backend_or_skip,
    forfeit_of,
    leftovers,
    match_folders,
    play,
)

ROOT = Path(__file__).resolve().parents[2]
SLEEPER = """\
import time
from botlib import run


def play(turn):
    time.sleep(0.2)
    return turn.legal_moves[0]


run(play)
"""


def any_slot_process() -> bool:
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            uid = next(int(line.split()[1]) for line in status.read_text().splitlines()
                       if line.startswith("Uid:"))
        except (OSError, StopIteration):
            continue
        if UID_BASE <= uid < UID_BASE + SLOT_COUNT:
            return True
    return False


def default_signals() -> None:
    # A job started in the background of a script inherits SIGINT ignored; a terminal's
    # Ctrl-C reaches a foreground `sandbox play` with the default action.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_match(bot: Path, backend: str) -> subprocess.Popen[str]:
    """A match run by another process (as a developer's `sandbox play` would), mid-game."""
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "play", "g2048", str(bot),
                             "--backend", backend, "--startup-time", "60"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, preexec_fn=default_signals)
    deadline = time.monotonic() + 60
    while not any_slot_process():
        assert proc.poll() is None and time.monotonic() < deadline, "the match did not start"
        time.sleep(0.05)
    return proc


@pytest.fixture
def sleeper(tmp_path: Path) -> Path:
    bot = tmp_path / "sleeper.py"
    bot.write_text(SLEEPER)
    return bot


@pytest.fixture
def foreign_match(sleeper: Path):
    backend_or_skip("process")
    proc = start_match(sleeper, "process")
    yield proc
    if proc.poll() is None:
        proc.terminate()
        proc.wait(timeout=30)


def test_another_live_match_is_not_a_leftover(foreign_match):
    assert leftovers() == []
    # and a match of our own beside it runs and cleans up after itself
    record = play([str(BOTS / "first.py"), "builtin:random"], "process")
    assert forfeit_of(record) is None
    assert leftovers() == []
    assert foreign_match.poll() is None  # still mid-game: the checks above saw it running


@pytest.mark.parametrize(("signum", "code", "says"), [
    (signal.SIGINT, 130, "interrupted"),
    (signal.SIGTERM, 143, "stopped by SIGTERM"),
    (signal.SIGHUP, 143, "stopped by SIGHUP"),
])
def test_a_stopped_match_leaves_nothing_behind(foreign_match, signum, code, says):
    foreign_match.send_signal(signum)
    assert foreign_match.wait(timeout=30) == code
    assert says in foreign_match.stderr.read()
    assert_worker_clean()


def test_a_killed_referees_leftovers_go_with_the_next_match(sleeper, backend):
    proc = start_match(sleeper, backend)
    proc.kill()
    proc.wait(timeout=30)
    # a process-backend bot dies with its referee (bwrap --die-with-parent); a container stays
    deadline = time.monotonic() + 10
    while backend == "process" and any_slot_process() and time.monotonic() < deadline:
        time.sleep(0.05)
    stranded = [p for p in match_folders() if f"-{proc.pid}-" in p]
    assert stranded, "SIGKILL gives the referee no chance to clean up"
    if backend == "docker":
        assert any(name for name, _ in leftover_containers())
    play([str(BOTS / "first.py"), "builtin:random"], backend)
    assert not any(Path(p).exists() for p in stranded)
    assert_worker_clean()
