"""The README's run command on the embedded default: ``./dev up`` starts web, workers and beat
on SQLite and the filesystem broker, the demo bots get validated and play, and Ctrl-C stops
everything, leaving no process, bot, match folder or lock behind. Made to last: its logs are
rotated and its worker processes recycled while the league plays (both set small here)."""

from __future__ import annotations

import os
import signal
import sqlite3
import time
import urllib.request
from pathlib import Path

import pytest

from benchmarks.leftovers import leftovers
from league.demo.competitions import CUP, SWISS
from tests.league.conftest import wait_for
from tests.league.up_league import free_port, league_up

pytestmark = pytest.mark.slow
LOG_BYTES = 20_000


def processes_with(marker: str) -> list[int]:
    """Pids whose environment holds ``marker`` (everything ./dev up started inherits it)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/environ").read_bytes():
                    found.append(int(entry))
            except OSError:
                continue
    return found


def finished_ladder_matches(database: Path) -> int:
    if not database.exists():
        return 0
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
        try:
            return db.execute("SELECT count(*) FROM ladders_match WHERE status = 'finished' "
                              "AND kind = 'ladder'").fetchone()[0]
        except sqlite3.OperationalError:  # not migrated yet
            return 0


def match_processes(database: Path) -> set[str]:
    """The worker processes (``host:pid``) that played the ladder's finished matches."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as db:
        return {row[0] for row in db.execute(
            "SELECT DISTINCT claimed_by FROM ladders_match WHERE status = 'finished'")}


def tournament_states(database: Path) -> dict[str, str]:
    """Each tournament's state by name, its first edition's (the Swiss comes back)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as db:
        return dict(db.execute("SELECT name, state FROM competitions_tournament "
                               "ORDER BY id DESC"))


def swiss_editions(database: Path) -> int:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as db:
        return db.execute("SELECT count(*) FROM competitions_tournament WHERE name = ?",
                          (SWISS,)).fetchone()[0]


def test_dev_up_runs_the_league_on_sqlite_and_ctrl_c_leaves_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    out = tmp_path / "up.out"
    with league_up(["./dev", "up"], data, out, PORT=str(port),
                   LEAGUE_MATCHMAKING_SECONDS="2", LEAGUE_LOG_MAX_BYTES=str(LOG_BYTES),
                   LEAGUE_LOG_KEEP="1000", LEAGUE_WORKER_MAX_TASKS="3") as up:
        url = f"http://127.0.0.1:{port}/"
        wait_for(lambda: url in out.read_text(), 180, "./dev up to print its address",
                 out.read_text)
        with urllib.request.urlopen(url, timeout=10) as response:
            page = response.read().decode()
        for title in ("Blokus Duo", "Stones", "Wizard Duel", "2048", "Robots"):
            assert title in page
        wait_for(lambda: finished_ladder_matches(data / "league.sqlite3") >= 2, 180,
                 "demo bots to play ladder matches on SQLite",
                 lambda: (data / "logs" / "worker.log").read_text())
        with urllib.request.urlopen(url, timeout=10) as response:
            assert "No validated bots yet" not in response.read().decode().split(
                "ladder-stones")[1].split("</article>")[0]
        # the demo's cup is played out within about a minute; its Swiss goes on after it
        wait_for(lambda: tournament_states(data / "league.sqlite3").get(CUP) == "finished",
                 120, "the demo's cup to finish",
                 lambda: str(tournament_states(data / "league.sqlite3")))
        assert tournament_states(data / "league.sqlite3")[SWISS] in {"registration", "running",
                                                                    "finished"}
        # and once it has started, its next edition is listed (it comes back)
        wait_for(lambda: swiss_editions(data / "league.sqlite3") >= 2, 120,
                 "the Swiss's next edition", lambda: str(tournament_states(
                     data / "league.sqlite3")))
        # the play worker (games against people) is up on its own queue
        assert " ready." in (data / "logs" / "play.log").read_text()
        # and the notifications' worker (mails, webhooks) on its own
        assert " ready." in (data / "logs" / "notify.log").read_text()
        up.send_signal(signal.SIGINT)
        assert up.wait(60) == 0, out.read_text()
    assert "stopping web, workers and beat" in out.read_text()
    # each pool process played at most 3 tasks before a fresh one took its place
    assert len(match_processes(data / "league.sqlite3")) > 2 * (os.cpu_count() or 1)
    logs = sorted((data / "logs").glob("*.log*"))
    assert (data / "logs" / "worker.log.1").exists(), [log.name for log in logs]
    assert all(log.stat().st_size <= LOG_BYTES + 65536 for log in logs)  # + one pipe read
    # every process ran clean: a failing periodic task (the ticks) is only a log line
    for log in logs:
        failed = [line for line in log.read_text().splitlines()
                  if " ERROR " in line or "ERROR/" in line or line.startswith("Traceback")]
        assert not failed, f"{log.name}: {failed[:3]}"
    time.sleep(0.5)
    assert processes_with(f"BOTLEAGUE_DATA={data}") == []
    assert leftovers() == []
    assert not list(data.rglob("*.pid"))
