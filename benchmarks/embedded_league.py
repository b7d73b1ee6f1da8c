"""The embedded default at 2,000,000 matches (issue 24): ``./dev up``'s league (SQLite, the
filesystem broker, no Redis) on a league that has played for months, pages timed while its
demo bots play, against the same pages of a small league measured in the same run.

    .venv/bin/python -m benchmarks.embedded_league              # builds var/bench-embedded once
    .venv/bin/python -m benchmarks.embedded_league --data DIR --requests 100

For each league: its data folder is made once with the scale generator (``python -m
benchmarks.scale_data`` into SQLite; ~25 minutes for 2,000,000 matches, then reused), one
matchmaking tick is timed with every queue empty (full) and with them full (idle), rolled
back; then ``manage.py up`` (what ``./dev up`` runs: migrate, the demo, gunicorn, the match
workers, the ticks' worker and beat) starts on it, timed until its health answers; once its
demo bots play, each page is fetched ``--requests`` times by one client on a kept-alive
connection; the ticks the league ran meanwhile are read from its log; Ctrl-C stops it.
Targets, p95: bot page ≤ 100 ms, home, ladder and match pages and ``/health/`` ≤ 50 ms, a
tick ≤ 50 ms, and ``./dev up`` starting.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.league_pages import Timings, cpu_seconds, get, group_pids

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"bot page": 100.0, "home": 50.0, "ladder page": 50.0, "match page": 50.0,
           "health": 50.0}
"""p95 ms, by the start of a page's name."""
TICK_TARGET = 50.0
UP_LIMIT = 60.0
"""Seconds ``manage.py up`` waits for its health to answer before it gives up."""


def league_env(data: Path) -> dict[str, str]:
    """The embedded default: no DATABASE_URL, REDIS_URL or CACHE_URL; ``data`` its folder."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update(BOTLEAGUE_DATA=str(data), DJANGO_SETTINGS_MODULE="league.settings",
               PYTHONPATH=str(ROOT))
    return env


def finished_matches(database: Path) -> int:
    if not database.exists():
        return 0
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        try:
            return db.execute("SELECT max(id) FROM ladders_match").fetchone()[0] or 0
        except sqlite3.OperationalError:
            return 0


def build(data: Path, bots: int, matches: int) -> float:
    """The league in ``data``, generated unless it holds as many matches already; seconds
    it took (0: reused)."""
    if finished_matches(data / "league.sqlite3") >= matches:
        return 0.0
    data.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    env = league_env(data)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                   check=True)
    subprocess.run([sys.executable, "-m", "benchmarks.scale_data", "--bots", str(bots),
                    "--matches", str(matches), "--days", "30", "--reset", "--quiet"],
                   cwd=ROOT, env=env, check=True)
    return time.monotonic() - start


def measure_ticks(runs: int) -> dict[str, list[float]]:
    """In a process set up on the league: ticks with every queue empty (full) and full
    (idle), each rolled back; seconds."""
    import django

    django.setup()
    from django.db import transaction

    from league.ladders.matchmaking import matchmaking_tick
    from league.ladders.models import Match, MatchStatus

    def timed(run: Callable[[], object], n: int) -> list[float]:
        out = []
        for _ in range(n):
            start = time.perf_counter()
            run()
            out.append(time.perf_counter() - start)
        return out

    def full() -> None:
        with transaction.atomic():
            # what an earlier run of the league left open, cancelled for this tick only
            Match.objects.filter(status__open=True).update(status=MatchStatus.CANCELLED)
            matchmaking_tick(rng=random.Random(1))
            transaction.set_rollback(True)

    timed(full, 2)  # the pages the tick reads, in the cache
    result = {"full": timed(full, runs)}
    with transaction.atomic():
        Match.objects.filter(status__open=True).update(status=MatchStatus.CANCELLED)
        matchmaking_tick(rng=random.Random(1))
        result["idle"] = timed(lambda: matchmaking_tick(rng=random.Random(1)), runs)
        transaction.set_rollback(True)
    return result


def ticks_of(data: Path, runs: int) -> dict[str, list[float]]:
    done = subprocess.run([sys.executable, "-m", "benchmarks.embedded_league",
                           "--measure-ticks", str(runs)], cwd=ROOT, env=league_env(data),
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def pages(database: Path, rng: random.Random) -> dict[str, list[str]]:
    """The URLs each measured page is taken from."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        ladders = [slug for (slug,) in db.execute(
            "SELECT slug FROM ladders_ladder WHERE active ORDER BY id")]
        bots = [pk for (pk,) in db.execute(
            "SELECT id FROM bots_bot WHERE active_version_id IS NOT NULL")]
        busiest = [pk for (pk,) in db.execute(
            "SELECT v.bot_id FROM ladders_participant p JOIN bots_botversion v "
            "ON v.id = p.version_id GROUP BY v.bot_id ORDER BY count(*) DESC LIMIT 5")]
        users = [name for (name,) in db.execute(
            "SELECT DISTINCT u.username FROM auth_user u JOIN bots_bot b ON b.owner_id = u.id")]
        low, high = db.execute("SELECT min(id), max(id) FROM ladders_match "
                               "WHERE status = 'finished'").fetchone()
        matches = [m for (m,) in (db.execute(
            "SELECT id FROM ladders_match WHERE id >= ? AND status = 'finished' "
            "ORDER BY id LIMIT 1", [rng.randint(low, high)]).fetchone() for _ in range(60))]
        boards = {slug: n for slug, n in db.execute(
            "SELECT l.slug, count(*) FROM ladders_standing s JOIN ladders_ladder l "
            "ON l.id = s.ladder_id JOIN bots_bot b ON b.active_version_id = s.version_id "
            "WHERE NOT b.retired AND NOT b.disabled GROUP BY l.slug")}
    return {
        "health": ["/health/"],
        "home": ["/"],
        "ladder page, first page": [f"/ladders/{slug}/" for slug in ladders],
        "ladder page, random page": [
            f"/ladders/{slug}/?page={rng.randint(1, max(1, boards.get(slug, 0) // 50))}"
            for slug in ladders for _ in range(4)],
        "bot page, random bots": [f"/bots/{pk}/" for pk in rng.sample(bots, min(40, len(bots)))],
        "bot page, 5 busiest bots": [f"/bots/{pk}/" for pk in busiest],
        "match page, random matches": [f"/matches/{pk}/" for pk in matches],
        "user page": [f"/u/{name}/" for name in rng.sample(users, min(20, len(users)))],
        "tournaments": ["/tournaments/"],
    }


def children(pid: int) -> dict[int, str]:
    """Direct children of ``pid`` and their command lines."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found[int(stat.parent.name)] = (stat.parent / "cmdline").read_bytes().replace(
                    b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue
    return found


@dataclass
class Run:
    up_seconds: float
    health_ms: float
    pages: dict[str, Timings] = field(default_factory=dict)
    ticks: dict[str, list[float]] = field(default_factory=dict)
    """Seconds of the ticks the league's ticks worker ran while the pages were measured."""
    played: int = 0
    """Matches the league finished while the pages were measured."""
    exit_code: int | None = None


@contextmanager
def league_up(data: Path, port: int, workers: int, log: Path) -> Iterator[tuple[Run, int]]:
    """``manage.py up`` on ``data``; yields the run (its start timed) and the web server's
    process group. Stopped with SIGINT, as Ctrl-C does."""
    with open(log, "wb") as out:
        start = time.monotonic()
        up = subprocess.Popen([sys.executable, "manage.py", "up", "--port", str(port),
                               "--workers", str(workers)], cwd=ROOT, env=league_env(data),
                              stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    run = Run(0.0, 0.0)
    try:
        while "botleague is up at" not in log.read_text(errors="replace"):
            if up.poll() is not None or time.monotonic() - start > UP_LIMIT + 120:
                raise SystemExit(f"manage.py up did not start; see {log}")
            time.sleep(0.1)
        run.up_seconds = time.monotonic() - start
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        run.health_ms = 1000 * get(conn, "/health/")
        conn.close()
        web = next(pid for pid, line in children(up.pid).items() if "gunicorn" in line)
        yield run, web
    finally:
        up.send_signal(signal.SIGINT)
        try:
            run.exit_code = up.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(up.pid, signal.SIGKILL)
            up.wait()


def played_since(database: Path, since: str) -> int:
    """Matches finished since ``since`` (UTC, as the league writes times)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as db:
        return db.execute("SELECT count(*) FROM ladders_match WHERE finished_at >= ? "
                          "AND status = 'finished'", [since]).fetchone()[0]


TICK_LINE = re.compile(r"Task league\.(\w+)\.tasks\.(\w+)\[[^\]]+\] succeeded in ([0-9.e-]+)s")


def logged_ticks(log: Path, since: int) -> dict[str, list[float]]:
    """Seconds of each tick the ticks worker logged after byte ``since`` of its log."""
    ticks: dict[str, list[float]] = {}
    with open(log, "rb") as f:
        f.seek(since)
        for match in TICK_LINE.finditer(f.read().decode(errors="replace")):
            ticks.setdefault(match.group(2), []).append(float(match.group(3)))
    return ticks


def measure_league(data: Path, port: int, workers: int, requests: int, warm_seconds: float,
                   rng: random.Random, web_nice: int = 0) -> Run:
    urls = pages(data / "league.sqlite3", rng)
    log = data / "up.out"
    with league_up(data, port, workers, log) as (run, web):
        if web_nice:
            for pid in group_pids(web):
                os.setpriority(os.PRIO_PROCESS, pid, web_nice)
        time.sleep(warm_seconds)  # the demo bots validated and playing
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for paths in urls.values():  # warm: templates compiled, the pages' rows cached
            for path in paths[:10]:
                get(conn, path)
        ticks_log = data / "logs" / "ticks.log"
        since = ticks_log.stat().st_size
        began_at = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
        for name, paths in urls.items():
            timings = Timings()
            before = cpu_seconds(group_pids(web))
            began = time.perf_counter()
            for i in range(requests):
                timings.seconds.append(get(conn, paths[i % len(paths)]))
            timings.wall = time.perf_counter() - began
            after = cpu_seconds(group_pids(web))
            timings.cpu = sum(t - before.get(pid, 0.0) for pid, t in after.items())
            run.pages[name] = timings
            print(f"  {name}: p95 {timings.p95:.1f} ms", file=sys.stderr, flush=True)
        conn.close()
        run.played = played_since(data / "league.sqlite3", began_at)
        run.ticks = logged_ticks(ticks_log, since)
    return run


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)] if values else 0.0


def target_for(name: str) -> float | None:
    return next((ms for page, ms in TARGETS.items() if name.startswith(page)), None)


def report(large: Run, small: Run | None, ticks: dict, small_ticks: dict | None,
           sizes: str) -> None:
    print(f"\n{sizes}")
    print(f"./dev up (manage.py up) on the large league: health answered "
          f"{large.up_seconds:.1f} s after start (limit {UP_LIMIT:.0f} s; its first answer "
          f"{large.health_ms:.0f} ms), stopped with exit code {large.exit_code}"
          + (f"; on the small one {small.up_seconds:.1f} s" if small else ""))
    print(f"\n{'page (1 client, league playing)':<30} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'max ms':>7} {'cpu ms':>7} {'small p95':>10} {'ratio':>6} {'small cpu':>10} "
          f"{'ratio':>6}  target (p95)")
    for name, t in large.pages.items():
        base = small.pages.get(name) if small else None
        ratio = f"{t.p95 / base.p95:5.2f}x" if base else "     -"
        target = target_for(name)
        verdict = (f"≤ {target:.0f} ms — {'met' if t.p95 <= target else 'NOT met'}"
                   if target else "")
        base_p95 = f"{base.p95:10.1f}" if base else f"{'-':>10}"
        cpu = (f"{base.cpu_ms:10.1f} {t.cpu_ms / base.cpu_ms:5.2f}x"
               if base and base.cpu_ms else f"{'-':>10} {'-':>6}")
        print(f"{name:<30} {t.p50:7.1f} {t.p95:7.1f} {t.max:7.1f} {t.cpu_ms:7.1f} "
              f"{base_p95} {ratio} {cpu}  {verdict}")
    print("cpu ms: CPU time of the web server's processes per request (from /proc); the "
          "match workers played meanwhile: "
          f"{large.played} matches on the large league"
          + (f", {small.played} on the small one" if small else ""))
    print(f"\n{'tick':<44} {'median ms':>10} {'p95 ms':>8} {'small p95':>10} {'ratio':>6}  "
          f"target")
    rows = [("matchmaking, every queue empty (full)", ticks["full"],
             small_ticks["full"] if small_ticks else None),
            ("matchmaking, queues full (idle)", ticks["idle"],
             small_ticks["idle"] if small_ticks else None)]
    for task, values in sorted(large.ticks.items()):
        rows.append((f"{task}, as the league ran it", values,
                     small.ticks.get(task) if small else None))
    for label, values, base in rows:
        ours = p95(values) * 1000
        verdict = (f"≤ {TICK_TARGET:.0f} ms — {'met' if ours <= TICK_TARGET else 'NOT met'}"
                   if label.startswith("matchmaking") else "")
        base_ms = p95(base) * 1000 if base else None
        print(f"{label:<44} {statistics.median(values) * 1000:10.1f} {ours:8.1f} "
              + (f"{base_ms:10.1f} {ours / base_ms:5.2f}x" if base_ms else f"{'-':>10} {'-':>6}")
              + f"  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT / "var" / "bench-embedded",
                        help="the large league's data folder (built once, then reused)")
    parser.add_argument("--bots", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=2_000_000)
    parser.add_argument("--small-bots", type=int, default=500)
    parser.add_argument("--small-matches", type=int, default=10_000)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--requests", type=int, default=100, help="requests per page")
    parser.add_argument("--ticks", type=int, default=20, help="ticks timed of each kind")
    parser.add_argument("--port", type=int, default=8150)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="match worker processes (./dev up's default: one per core)")
    parser.add_argument("--warm", type=float, default=30.0,
                        help="seconds the league plays before the pages are timed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--web-nice", type=int, default=0,
                        help="run the web server's processes and this client at this niceness "
                             "(below 0 needs root): a stand-in for a machine of their own, "
                             "where other jobs share this one; the league's workers keep theirs")
    parser.add_argument("--measure-ticks", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--dump-stats", type=Path, metavar="FILE",
                        help="write the large league's sqlite_stat1 as JSON (the statistics "
                             "tests/league/embedded_plans.py plans with) and stop")
    args = parser.parse_args()
    if args.web_nice:  # the client too: its wait to be scheduled would count as the page's
        os.setpriority(os.PRIO_PROCESS, 0, args.web_nice)
    if args.measure_ticks:
        print(json.dumps(measure_ticks(args.measure_ticks)))
        return
    built = build(args.data, args.bots, args.matches)
    if built:
        print(f"built the large league in {built / 60:.1f} min", file=sys.stderr)
    if args.dump_stats:
        with sqlite3.connect(f"file:{args.data / 'league.sqlite3'}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT tbl, idx, stat FROM sqlite_stat1 WHERE tbl NOT LIKE "
                              "'django%' AND tbl NOT LIKE 'competitions%' ORDER BY 1, 2")
            args.dump_stats.write_text(
                "[\n" + ",\n".join(json.dumps(list(r)) for r in rows) + "\n]\n")
        return
    small_run = small_ticks = None
    sizes = f"large: {args.data} ({finished_matches(args.data / 'league.sqlite3'):,} matches)"
    if not args.no_baseline:
        with tempfile.TemporaryDirectory(prefix="botleague-embedded-small-") as folder:
            small = Path(folder)
            print("making the small league...", file=sys.stderr, flush=True)
            build(small, args.small_bots, args.small_matches)
            sizes += f"; small: {args.small_bots} bots, {args.small_matches:,} matches"
            small_ticks = ticks_of(small, args.ticks)
            print("small league:", file=sys.stderr, flush=True)
            small_run = measure_league(small, args.port, args.workers, args.requests,
                                       args.warm, random.Random(args.seed), args.web_nice)
    ticks = ticks_of(args.data, args.ticks)
    print("large league:", file=sys.stderr, flush=True)
    large = measure_league(args.data, args.port, args.workers, args.requests, args.warm,
                           random.Random(args.seed), args.web_nice)
    print(f"load average after: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
          file=sys.stderr)
    if args.web_nice:
        sizes += f"; web server at niceness {args.web_nice}"
    report(large, small_run, ticks, small_ticks, sizes)


if __name__ == "__main__":
    main()
