"""Heavy anonymous reads against everyone else's pages: ``GET /`` while 8 clients pull the
frames and the ``replay.html`` files of finished matches, with the replay caches off and on.

    .venv/bin/python -m benchmarks.heavy_reads [--seconds 20] [--only embedded|postgres]

The league's web server is started as ``./dev up`` starts it (``league.supervise.commands``),
once per phase, on a league of finished matches stored here (2048 runs of 2,000 to 3,000
moves and Stones games of built-in players, ``benchmarks/records.py``):

- **idle**: ``GET /`` alone, one request after another: the baseline;
- **before**: ``GET /`` while 200 play pages wait on a person's game that never moves (each
  parked by the server, asking again whenever its long poll answers) and 8 clients pull, as
  fast as they are answered, frame ranges
  (``?start=k*256&stop=k*256+2048``, as an outside probe did) and ``replay.html`` files of
  random finished matches, with ``LEAGUE_REPLAY_CACHE=false``: every read worked out by the
  engine again, as before issue 35;
- **after**: the same with the caches on (the default): a range or file is worked out once
  and kept (gzip) in the ``replays`` cache, and sent as kept to a reader taking gzip; the
  clients send no ``If-None-Match``, so this is the server's cache alone, not the browsers'
  304s.

In both loaded phases ``GET /`` is timed once the clients have had as many reads answered as
there are addresses to read (the caches warm, in "after": a popular match's steady state).

Rate limits are lifted in every phase (the ``heavy`` one would refuse one address's eight
clients; the tests check it). Printed: ``GET /``'s median and p95 in each phase and their
ratio to the idle baseline of the same run, and the heavy reads answered per second. Modes:
the embedded default (SQLite, files for the cache, no Redis) and PostgreSQL + Redis (a scratch
database ``botleague_cache_bench`` next to ``DATABASE_URL``'s, and ``BENCH_REDIS_URL``, by
default db 13 of the local Redis, flushed here).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import requests

from benchmarks.play_league import free_port, league_env, serving, spawn, wait_until

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = "botleague_cache_bench"
CLIENTS = 8
WAITERS = 200
WAITER, WAITER_PASSWORD = "waiting-person", "a-long-enough-password-1"
LIFTED = {"LEAGUE_WAITS_PER_USER": "100000", "LEAGUE_PLAY_LONG_POLL_SECONDS": "30",
          "API_THROTTLE_PLAY": "100000000/min", "API_THROTTLE_ANON": "100000000/min",
          "API_THROTTLE_VIEWER": "100000000/min",
          "LEAGUE_HEAVY_READS": "100000000/min", "LOG_LEVEL": "WARNING",
          "LEAGUE_KEEP_BUSY": "false"}
"""No rate in the way of the benchmark's clients, which all come from one address (and one
person's 200 waiting pages)."""


# -- the league's matches (run in a subprocess on the league's database) -------------------

def store() -> None:
    """Migrate, store the finished matches, print what the clients read (JSON)."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from benchmarks.records import engine_record, long_2048_record
    from league.ladders.models import Ladder, Match, MatchStatus, Participant, Replay

    call_command("migrate", verbosity=0)
    records = [long_2048_record(n) for n in (3000, 2500, 2000)]
    records += [engine_record("stones", seed=s, player="random") for s in (1, 2, 3)]
    reads = []
    for record in records:
        assert record.result is not None
        now = timezone.now()
        match = Match.objects.create(
            ladder=Ladder.objects.get(game=record.game), seed=record.seed,
            status=MatchStatus.FINISHED, started_at=now, finished_at=now,
            result=record.result.to_json(), moves=len(record.moves))
        for player in record.players:
            Participant.objects.create(match=match, seat=player.seat,
                                       builtin=player.name.removeprefix("builtin:")[:32])
        Replay.objects.create(match=match, format=record.version, data=Replay.encode(record))
        frames = f"/api/matches/{match.pk}/frames/"
        reads += [f"{frames}?start={k}&stop={k + 2048}"
                  for k in range(0, len(record.moves) + 1, 256)]
        reads.append(f"/matches/{match.pk}/replay.html")
    print(json.dumps({"reads": reads, "waiting": _waiting_game()}))


def _waiting_game() -> str:
    """A person's game that never moves (queued, no play worker here): the path its page
    long-polls, which the waiters park on."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from league.ladders.models import Exhibition, Ladder, Match, MatchKind, Participant

    user = get_user_model().objects.create_user(WAITER, password=WAITER_PASSWORD)
    match = Match.objects.create(ladder=Ladder.objects.get(game="stones"),
                                 kind=MatchKind.EXHIBITION, seed=1)
    Participant.objects.create(match=match, seat=0, player=user)
    Participant.objects.create(match=match, seat=1, builtin="random")
    Exhibition.objects.create(match=match, user=user, seat=0,
                              move_time=settings.LEAGUE_PLAY_MOVE_SECONDS,
                              game_time=settings.LEAGUE_PLAY_GAME_SECONDS)
    return f"/api/play/{match.pk}/?since=0&status=queued"


# -- measuring -----------------------------------------------------------------------------

def timed_get(session: requests.Session, url: str) -> float:
    start = time.perf_counter()
    response = session.get(url, timeout=120)
    took = time.perf_counter() - start
    if response.status_code != 200:
        raise SystemExit(f"GET {url}: {response.status_code} {response.text[:300]}")
    return took


def _signed_in(base: str) -> dict[str, str]:
    with requests.Session() as session:
        session.get(f"{base}/account/login/", timeout=60).raise_for_status()
        answer = session.post(f"{base}/account/login/", timeout=60, allow_redirects=False,
                              data={"username": WAITER, "password": WAITER_PASSWORD,
                                    "csrfmiddlewaretoken": session.cookies["csrftoken"]})
        assert answer.status_code == 302, f"log-in failed: {answer.status_code}"
        return session.cookies.get_dict()


def phase(base: str, reads: list[str], waiting: str, seconds: float, loaded: bool
          ) -> dict[str, float]:
    """``GET /``'s latencies over ``seconds`` (after a warm-up), with, when ``loaded``, 8
    clients pulling heavy reads and 200 play pages waiting on a game that never moves
    (parked: each asks again when its long poll answers); the heavy reads answered per
    second, the waiters' answers other than 200 (none expected)."""
    stop = threading.Event()
    done = [0]
    lock = threading.Lock()
    refused: list[str] = []
    cookies = _signed_in(base) if loaded else {}

    def wait() -> None:
        with requests.Session() as session:
            session.cookies.update(cookies)
            while not stop.is_set():
                try:
                    answer = session.get(base + waiting, timeout=120)
                except requests.RequestException:
                    if stop.is_set():
                        return  # the phase is over and its server stopped under the wait
                    raise
                if answer.status_code != 200:
                    refused.append(f"{answer.status_code} {answer.text[:200]}")
                    time.sleep(1)

    waiters = [threading.Thread(target=wait, daemon=True)
               for _ in range(WAITERS if loaded else 0)]
    for thread in waiters:
        thread.start()

    def pull(seed: int) -> None:
        """A heavy reader: asks again as soon as it is answered. It takes gzip, as browsers
        do, and reads the bytes as they come without inflating them: a reader elsewhere
        spends its own CPU on that, not this machine's."""
        rng = random.Random(seed)
        with requests.Session() as session:
            while not stop.is_set():
                url = base + rng.choice(reads)
                with session.get(url, timeout=120, stream=True) as response:
                    if response.status_code != 200:
                        raise SystemExit(f"GET {url}: {response.status_code}")
                    for _ in response.raw.stream(1 << 20, decode_content=False):
                        pass
                with lock:
                    done[0] += 1

    threads = [threading.Thread(target=pull, args=(n,), daemon=True)
               for n in range(CLIENTS if loaded else 0)]
    for thread in threads:
        thread.start()
    samples = []
    with requests.Session() as session:
        timed_get(session, base + "/")  # the server's first page: templates, connections
        # Warm: the clients at full speed, as many reads answered as there are addresses
        # (with the caches on, most worked out once; a popular match's steady state).
        deadline = time.monotonic() + 120
        while loaded and done[0] < len(reads) and time.monotonic() < deadline:
            time.sleep(0.2)
        with lock:
            counted_from = done[0]
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            samples.append(timed_get(session, base + "/"))
            time.sleep(0.05)  # a person's pace, not a second load
        wall = time.monotonic() - start
    with lock:
        heavy = done[0] - counted_from
    stop.set()
    for thread in threads:
        thread.join(180)
    if refused:
        raise SystemExit(f"{len(refused)} waits answered otherwise than 200: {refused[:3]}")
    ordered = sorted(samples)
    return {"median": 1000 * statistics.median(samples),
            "p95": 1000 * ordered[round(0.95 * (len(ordered) - 1))],
            "requests": len(samples), "heavy_per_s": heavy / wall}


def run_mode(mode: str, seconds: float, work: Path) -> dict[str, dict[str, float]]:
    from league.supervise import commands

    data = work / mode
    data.mkdir(parents=True)
    if mode == "postgres":
        database_url, redis_url = scratch_database(), os.environ.get(
            "BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
        import redis

        redis.Redis.from_url(redis_url).flushdb()
    else:
        database_url, redis_url = None, ""
    env = league_env(database_url, data, LIFTED, redis_url=redis_url)
    made = subprocess.run([sys.executable, "-m", "benchmarks.heavy_reads", "--store"],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if made.returncode:
        raise SystemExit(made.stderr[-3000:])
    stored = json.loads(made.stdout.strip().splitlines()[-1])
    results = {}
    for name, cache, loaded in (("idle", "true", False), ("before", "false", True),
                                ("after", "true", True)):
        port = free_port()
        web = spawn(f"web-{name}", commands("127.0.0.1", port, 1)["web"],
                    {**env, "LEAGUE_REPLAY_CACHE": cache}, data)
        try:
            wait_until(lambda port=port: serving(f"http://127.0.0.1:{port}"), 60,
                       "the web server", [web])
            results[name] = phase(f"http://127.0.0.1:{port}", stored["reads"],
                                  stored["waiting"], seconds, loaded)
        finally:
            web.stop()
    return results


def scratch_database() -> str:
    import psycopg

    url = urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/x"))
    admin = url._replace(scheme="postgresql", path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    return url._replace(path=f"/{BENCH_DB}").geturl()


def report(mode: str, results: dict[str, dict[str, float]]) -> None:
    idle = results["idle"]
    print(f"\n{mode}: GET / in ms (ratio = the phase's / idle's, same run)")
    print(f"{'phase':<34} {'median':>8} {'p95':>8} {'x median':>9} {'x p95':>7} "
          f"{'heavy/s':>8}")
    for name, label in (("idle", "idle (baseline)"),
                        ("before", f"{WAITERS} waiting, {CLIENTS} heavy, caches off"),
                        ("after", f"{WAITERS} waiting, {CLIENTS} heavy, caches on")):
        r = results[name]
        print(f"{label:<34} {r['median']:>8.1f} {r['p95']:>8.1f} "
              f"{r['median'] / idle['median']:>8.1f}x {r['p95'] / idle['p95']:>6.1f}x "
              f"{r['heavy_per_s']:>8.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.heavy_reads",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="how long GET / is timed in each phase")
    parser.add_argument("--only", choices=["embedded", "postgres"])
    parser.add_argument("--store", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.store:
        store()
        return 0
    modes = [args.only] if args.only else ["embedded", "postgres"]
    with tempfile.TemporaryDirectory(prefix="heavy-reads-") as folder:
        work = Path(folder)
        os.environ.update(BOTLEAGUE_DATA=str(work), DJANGO_SETTINGS_MODULE="league.settings")
        for mode in modes:
            report(mode, run_mode(mode, args.seconds, work))
    return 0


if __name__ == "__main__":
    sys.exit(main())

