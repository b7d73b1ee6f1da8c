"""How busy the workers are on the demo league: ``manage.py up`` (what ``./dev up`` runs, on
the embedded default, demo bots and tournaments included) on a scratch data folder, its
worker slots' busy share measured from the matches' own start and finish times over a window
once the demo bots are validated; next to the same league with ladders filled only on the
beat (``LEAGUE_KEEP_BUSY=false``, how the league ran before: the baseline), in the same run.

    .venv/bin/python -m benchmarks.worker_utilisation [--window 120] [--slots 2] [--port N]

The demo's rated ladders always have pairings to play, so every idle slot-second is the
league's. Each run also prints, per rated ladder, how many pairs played in the window and the
share of its matches that went to its most frequent pair: refilling on every finish pairs the
same rule more often, a few pairings at a time, and must not hammer a pair.
Target (issue 24): slots busy ≥ 90 % of the time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

from benchmarks.common import stop_group

ROOT = Path(__file__).resolve().parent.parent
OPEN_VALIDATIONS = ("SELECT count(*) FROM ladders_match WHERE kind = 'validation' "
                    "AND status IN ('queued', 'running')")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (OSError, sqlite3.Error):
            pass
        time.sleep(1)
    raise SystemExit(f"timed out waiting for {what}")


def stamp(value: str | None) -> float | None:
    """A time as Django writes it in SQLite (UTC text), as seconds since the epoch."""
    if value is None:
        return None
    return dt.datetime.fromisoformat(value).replace(tzinfo=dt.UTC).timestamp()


def league_run(keep_busy: bool, slots: int, window: float, warmup: float,
               port: int | None = None) -> dict:
    data = Path(tempfile.mkdtemp(prefix="botleague-busy-"))
    data.chmod(0o755)
    port = port or free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(BOTLEAGUE_DATA=str(data), LEAGUE_KEEP_BUSY=str(keep_busy).lower(),
               LEAGUE_WORKER_SLOTS=str(slots))
    up = subprocess.Popen([sys.executable, "manage.py", "up", "--port", str(port),
                           "--workers", str(slots)], cwd=ROOT, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          start_new_session=True)
    database = data / "league.sqlite3"
    try:
        wait_for(lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=2)
                 .status == 200, 120, "the league to answer")

        def validated() -> bool:
            with sqlite3.connect(database, timeout=10) as db:
                return db.execute(OPEN_VALIDATIONS).fetchone()[0] == 0
        wait_for(validated, 300, "the demo bots' validation")
        time.sleep(warmup)
        since = time.time()
        time.sleep(window)
        until = time.time()
    finally:
        stop_group(up, 30)
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT m.id, m.kind, m.started_at, m.finished_at, l.slug, l.kind "
            "FROM ladders_match m JOIN ladders_ladder l ON l.id = m.ladder_id "
            "WHERE m.started_at IS NOT NULL").fetchall()
        seats: dict[int, list[int]] = {}
        for match_id, version_id in db.execute(
                "SELECT match_id, version_id FROM ladders_participant "
                "WHERE version_id IS NOT NULL"):
            seats.setdefault(match_id, []).append(version_id)
    shutil.rmtree(data, ignore_errors=True)
    busy: Counter[str] = Counter()
    pairs: dict[str, Counter] = {}
    for match_id, kind, began, ended, ladder, ladder_kind in rows:
        start, end = stamp(began), stamp(ended) or until
        overlap = min(end, until) - max(start, since)
        if overlap <= 0:
            continue
        busy[kind] += overlap
        if kind == "ladder" and ladder_kind == "rated" and len(seats.get(match_id, [])) == 2:
            pairs.setdefault(ladder, Counter())[frozenset(seats[match_id])] += 1
    return {"busy": busy, "capacity": window * slots, "pairs": pairs}


def report(label: str, run: dict) -> float:
    share = sum(run["busy"].values()) / run["capacity"]
    kinds = ", ".join(f"{kind} {seconds / run['capacity']:.0%}"
                      for kind, seconds in run["busy"].most_common())
    print(f"  {label:<38}{share:>6.0%}   ({kinds})")
    for ladder, counts in sorted(run["pairs"].items()):
        total = sum(counts.values())
        print(f"  {'':<6}{ladder:<20} {total:>4} matches, {len(counts):>3} pairs, "
              f"most frequent pair {counts.most_common(1)[0][1] / total:.0%}")
    return share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--window", type=float, default=120.0)
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--slots", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--port", type=int, default=0, help="the web server's (any free one)")
    args = parser.parse_args()
    print(f"the demo league, {args.slots} worker slots, a {args.window:g} s window after "
          f"validation; the baseline first ...", flush=True)
    baseline = league_run(False, args.slots, args.window, args.warmup, args.port)
    ours = league_run(True, args.slots, args.window, args.warmup, args.port)
    print("  slots busy (share of slot-seconds)")
    before = report("baseline: filled on the beat only", baseline)
    after = report("filled again as each match ends", ours)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end")
    print(f"busy {after:.0%} against the baseline's {before:.0%} "
          f"({after / max(before, 1e-9):.2f}x); target ≥ 90 %: "
          f"{'met' if after >= 0.9 else 'NOT met'}")


if __name__ == "__main__":
    main()
