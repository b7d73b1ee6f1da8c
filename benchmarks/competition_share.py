"""The workers' share between ladders and competitions: a league whose Stones ladder always has
pairings to play runs a 64-entry Swiss tournament; over a window of the tournament's play,
how much of the workers' time went to ladder matches and how much to tournament games,
measured from the matches' own start and finish times, next to the same window of the same
league with no tournament (the ladders' baseline).

    .venv/bin/python -m benchmarks.competition_share [--entries 64] [--window 60] [--slots 2]

PostgreSQL and Redis (a scratch database and Redis db as ``benchmarks.league_overhead`` says),
a real worker with ``--slots`` processes, a ticks worker and a real beat (matchmaking and the
competitions' tick every second). The share rule (``docs/league.md``, "The workers' share"):
the ladders that have something to play hold twice the worker slots in open matches between
them, the competitions as many (``LEAGUE_COMPETITION_OPEN``), and the workers take matches in
the order they were queued; so a running tournament never holds the ladders below half the
workers, or below what they used alone when that is less, and takes what they leave. Target:
the ladder keeps at least 90 % of that.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.league_overhead import BOTS, configure, drop_database

ROOT = Path(__file__).resolve().parent.parent
FAST = {"LEAGUE_MATCHMAKING_SECONDS": "1", "LEAGUE_REAPER_SECONDS": "5",
        "LEAGUE_KEEP_BUSY": "true"}  # the league's default: a ladder refilled as its matches end


def spawn(args: list[str], log: Path, slots: int) -> subprocess.Popen:
    env = {**os.environ, **FAST, "LEAGUE_WORKER_SLOTS": str(slots)}
    with open(log, "wb") as out:
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "league", *args],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def busy_seconds(since: float, until: float) -> dict[str, float]:
    """Worker-seconds spent on each kind of match inside [since, until]."""
    from django.db.models import Q

    from league.ladders.models import Match

    start, end = (dt.datetime.fromtimestamp(t, dt.UTC) for t in (since, until))
    busy: dict[str, float] = {}
    rows = Match.objects.filter(Q(finished_at__gt=start) | Q(finished_at=None),
                                started_at__lt=end, started_at__isnull=False)
    for kind, began, ended in rows.values_list("kind", "started_at", "finished_at"):
        a, b = max(began, start), min(ended or end, end)
        busy[kind] = busy.get(kind, 0.0) + max(0.0, (b - a).total_seconds())
    return busy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=64)
    parser.add_argument("--window", type=float, default=60.0)
    parser.add_argument("--slots", type=int, default=2)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="botleague-bench-"))
    data.chmod(0o755)
    configure(False, data, keep_busy=True)
    os.environ["LEAGUE_WORKER_SLOTS"] = str(args.slots)
    import django

    django.setup()
    logging.getLogger("league").setLevel(logging.WARNING)
    import redis
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone

    from league.competitions.models import Tournament
    from league.competitions.services import entry_register, tournament_create
    from league.ladders.models import Match
    from league.ladders.services import version_upload

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    call_command("migrate", verbosity=0)
    owner = User.objects.create_user("bench", is_staff=True)
    source = BOTS["stones"].read_bytes()
    versions = [version_upload(owner=owner, game="stones", name=f"b{i}", filename="main.py",
                               data=source + f"\n# {i}\n".encode(), limited=False)
                for i in range(args.entries)]
    worker = spawn(["worker", "-l", "warning", "-c", str(args.slots), "-Q", "celery",
                    "--without-mingle", "--without-gossip"], data / "worker.log", args.slots)
    ticks = spawn(["worker", "-l", "warning", "-c", "1", "-Q", "ticks", "-n", "ticks@%h",
                   "--without-mingle", "--without-gossip"], data / "ticks.log", args.slots)
    beat = spawn(["beat", "-l", "warning", "--schedule", str(data / "beat")],
                 data / "beat.log", args.slots)
    try:
        while Match.objects.filter(kind="validation", finished_at=None).exists():
            time.sleep(1)
        print(f"{args.entries} Stones bots validated; ladder alone for {args.window:g} s ...")
        time.sleep(5)  # the ladder's queue full
        t0 = time.time()
        time.sleep(args.window)
        alone = busy_seconds(t0, time.time())
        now = timezone.now()
        t = tournament_create(user=owner, name="share", game="stones", format="swiss",
                              rounds=6, games_per_series=2, field_limit=args.entries,
                              registration_closes=now + dt.timedelta(hours=1),
                              starts_at=now + dt.timedelta(hours=1))
        for v in versions:
            entry_register(tournament=t, bot=v.bot, user=owner)
        now = timezone.now()  # the start brought forward: the beat starts it
        Tournament.objects.filter(pk=t.pk).update(registration_closes=now, starts_at=now)
        while Tournament.objects.get(pk=t.pk).state != "running":
            time.sleep(0.5)
        time.sleep(5)  # the first games released and playing
        t1 = time.time()
        time.sleep(args.window)
        both = busy_seconds(t1, time.time())
        still = Tournament.objects.get(pk=t.pk).state
    finally:
        for process in (beat, ticks, worker):
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        drop_database()
        shutil.rmtree(data, ignore_errors=True)
    capacity = args.window * args.slots
    ladder_alone = alone.get("ladder", 0.0)
    ladder, games = both.get("ladder", 0.0), both.get("tournament", 0.0)
    print(f"window {args.window:g} s, {args.slots} worker slots ({capacity:g} worker-seconds); "
          f"the tournament was {still} at the end")
    print(f"{'':2}{'':<34}{'ladder':>10}{'tournament':>12}{'busy':>8}")
    print(f"{'':2}{'ladder alone (baseline)':<34}{ladder_alone / capacity:>10.0%}{'':>12}"
          f"{ladder_alone / capacity:>8.0%}")
    print(f"{'':2}{'ladder with a running tournament':<34}{ladder / capacity:>10.0%}"
          f"{games / capacity:>12.0%}{(ladder + games) / capacity:>8.0%}")
    owed = min(ladder_alone, capacity / 2)
    kept = ladder / max(owed, 1e-9)
    print(f"the ladder kept {kept:.2f}x of its due (half the workers, or what it used alone "
          f"when less: {owed / capacity:.0%}); the tournament took {games / capacity:.0%} — "
          f"target ≥ 0.90x: {'met' if kept >= 0.9 else 'NOT met'}")


if __name__ == "__main__":
    main()
