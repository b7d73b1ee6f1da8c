"""Page speed at scale: the ladder page, the rankings API, bot pages and match pages served
by the league's own web server (gunicorn as ``./dev up`` starts it) on the data set of
``python -m benchmarks.scale_data`` (10,000 bots, 1,000,000 matches), with 1 and 16
concurrent clients.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/botleague_scale
    .venv/bin/python -m benchmarks.scale_data     # once: ~10 minutes, see docs/benchmarks.md
    .venv/bin/python manage.py stats_recount --fix  # once: the statistics' rows, ~10-30 min
    .venv/bin/python -m benchmarks.league_pages [--requests 200] [--clients 1 16]

Baseline, measured in the same run: the same pages on a small league made by the same
generator (``--small-bots 500 --small-matches 10000``: a hundred bots a ladder, so its pages
show as many rows; in a scratch database ``botleague_pages_small`` created and dropped here),
so the ratio says how much slower a page got with 20 times the bots and 100 times the
matches (1.0: not at all). ``/health/`` (one ``SELECT 1``) is timed too:
the floor of any request. Beside the latencies, the CPU time the server (gunicorn's
processes, from /proc) and its PostgreSQL sessions spent per request: on a machine shared
with other work the latencies say how long people waited, the CPU what a page costs.
Targets (issue 9), p95 with one client: ladder page, rankings API and match page at most
50 ms, bot page at most 100 ms; a bot's statistics, page and API, at most 100 ms (issue 37;
their rows made first: ``manage.py stats_recount --fix`` on the data set, once).
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from benchmarks.common import stop_group

ROOT = Path(__file__).resolve().parent.parent
SMALL_DB = "botleague_pages_small"
TARGETS = {"ladder page": 50.0, "rankings API": 50.0, "bot page": 100.0, "match page": 50.0,
           "statistics page": 100.0, "statistics API": 100.0}
"""p95 ms with one client, by the start of a page's name."""
SERVER_ENV = {"API_THROTTLE_ANON": "100000000/min", "API_THROTTLE_USER": "100000000/min",
              "LOG_LEVEL": "WARNING", "DATABASE_CONN_MAX_AGE": "3600"}
"""The API's per-client rate limits would answer 429 to a benchmark; database connections
kept for the whole run, so the sessions whose CPU is counted stay the same."""


@dataclass
class Timings:
    seconds: list[float] = field(default_factory=list)
    wall: float = 0.0
    cpu: float = 0.0
    """CPU seconds the web server's processes and its database sessions spent meanwhile."""

    @property
    def cpu_ms(self) -> float:
        """Server CPU per request: what a page costs whatever else runs on the machine."""
        return 1000 * self.cpu / len(self.seconds) if self.seconds else 0.0

    def ms(self, q: float) -> float:
        ordered = sorted(self.seconds)
        return 1000 * ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    @property
    def p50(self) -> float:
        return 1000 * statistics.median(self.seconds)

    @property
    def p95(self) -> float:
        return self.ms(0.95)

    @property
    def max(self) -> float:
        return 1000 * max(self.seconds)

    @property
    def rate(self) -> float:
        return len(self.seconds) / self.wall if self.wall else 0.0


def database_url(name: str) -> str:
    url = urlsplit(os.environ["DATABASE_URL"])
    return url._replace(path=f"/{name}").geturl()


def admin_url() -> str:
    return database_url("postgres").replace("postgres://", "postgresql://", 1)


def make_small_league(bots: int, matches: int) -> str:
    """A scratch database holding a small league of the same shape; its URL."""
    import psycopg

    with psycopg.connect(admin_url(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SMALL_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {SMALL_DB}")
    url = database_url(SMALL_DB)
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "league.settings"}
    for command in (["manage.py", "migrate", "-v0"],
                    ["-m", "benchmarks.scale_data", "--bots", str(bots), "--matches",
                     str(matches), "--quiet"],
                    # the statistics' sums, as a league that kept them from its start has
                    ["manage.py", "stats_recount", "--fix"]):
        subprocess.run([sys.executable, *command], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    return url


STATS_FILL = """
INSERT INTO ladders_versionstats (version_id, opponent, seat, seed, games, wins, losses, draws,
    scored, score_sum, score_sq_sum, forfeit_timeout, forfeit_crash, forfeit_illegal,
    forfeit_malformed, forfeit_limit, forfeit_start, length_sum, {lengths}, timed_moves,
    move_time_sum, move_time_max, {move_times})
SELECT p.version_id, COALESCE(o.version_id, 0), p.seat,
    CASE WHEN l.kind = 'rated' THEN 0 ELSE m.seed END, count(*),
    count(*) FILTER (WHERE p.outcome = 'win'), count(*) FILTER (WHERE p.outcome = 'loss'),
    count(*) FILTER (WHERE p.outcome = 'draw'), count(p.score), COALESCE(sum(p.score), 0),
    COALESCE(sum(p.score * p.score), 0),
    count(*) FILTER (WHERE p.forfeit = 'timeout'), count(*) FILTER (WHERE p.forfeit = 'crash'),
    count(*) FILTER (WHERE p.forfeit = 'illegal'),
    count(*) FILTER (WHERE p.forfeit = 'malformed'),
    count(*) FILTER (WHERE p.forfeit IN ('output-limit', 'memory-limit')),
    count(*) FILTER (WHERE p.forfeit IN ('compile', 'package')),
    COALESCE(sum(m.moves) FILTER (WHERE {played}), 0), {length_counts},
    COALESCE(sum(GREATEST(p.moves - 1, 0)) FILTER (WHERE {played}), 0),
    COALESCE(sum(p.time_used), 0), 0.5,
    COALESCE(sum(GREATEST(p.moves - 1, 0)) FILTER (WHERE {played}), 0), 0, 0, 0, 0, 0
FROM ladders_participant p JOIN ladders_match m ON m.id = p.match_id
JOIN ladders_ladder l ON l.id = m.ladder_id
LEFT JOIN ladders_participant o ON o.match_id = p.match_id AND o.seat <> p.seat
WHERE m.kind = 'ladder' AND m.status = 'finished' AND p.version_id IS NOT NULL
GROUP BY 1, 2, 3, 4
"""


def fill_statistics(url: str) -> int:
    """The statistics' rows (``VersionStats``) of the large data set, if it has none (it
    should have them from ``manage.py stats_recount --fix``, ~10 minutes at 1M matches), in
    one SQL statement: the same rows, keys and counts as ``manage.py stats_recount --fix``
    writes, but every move time in the first bucket (the generator's replays are a pool of
    games, their move times no bot's own; and the recount would read a million replays).
    What a page reads costs the same either way. Returns the rows written."""
    import psycopg

    from league.ladders.models import LENGTH_BOUNDS

    edges = [0, *LENGTH_BOUNDS]
    played = "m.reason NOT IN ('build-error', 'package-error')"
    counts = [f"count(*) FILTER (WHERE {played} AND m.moves >= {a} AND m.moves < {b})"
              for a, b in zip(edges, [*LENGTH_BOUNDS, 2**62], strict=True)]
    sql = STATS_FILL.format(
        lengths=", ".join(f"length_{i}" for i in range(len(counts))),
        move_times=", ".join(f"move_time_{i}" for i in range(6)), played=played,
        length_counts=", ".join(counts))
    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
        if conn.execute("SELECT 1 FROM ladders_versionstats LIMIT 1").fetchone():
            return 0
        written = conn.execute(sql).rowcount
        conn.execute("ANALYZE ladders_versionstats")
        return written


def drop_small_league() -> None:
    import psycopg

    with psycopg.connect(admin_url(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SMALL_DB} WITH (FORCE)")


@contextmanager
def serving(url: str, port: int, log: Path) -> Iterator[tuple[str, int]]:
    """The league's web server (the command ``./dev up`` runs) on database ``url``."""
    from league.supervise import commands

    command = commands("127.0.0.1", port, 1)["web"]
    env = {**os.environ, **SERVER_ENV, "DATABASE_URL": url,
           "DJANGO_SETTINGS_MODULE": "league.settings"}
    with open(log, "ab") as out:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/health/", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the web server did not start; see {log}") from None
                time.sleep(0.2)
        yield base, server.pid
    finally:
        stop_group(server, 10)


def pages(alias: str, rng: random.Random) -> dict[str, list[str]]:
    """The URLs each measured page is taken from, read from database ``alias``."""
    from django.db.models import Count

    from league.bots.models import Bot
    from league.ladders.models import Ladder, Match, MatchStatus, Standing

    ladders = list(Ladder.objects.using(alias).filter(active=True).order_by("pk"))
    deep = []
    for ladder in ladders:
        rows = Standing.objects.using(alias).filter(
            ladder=ladder, version__status="active", version__bot__retired=False,
            version__bot__disabled=False).count()
        deep += [f"/ladders/{ladder.slug}/?page={rng.randint(1, max(1, rows // 50))}"
                 for _ in range(4)]
    bots = Bot.objects.using(alias).filter(active_version__isnull=False)
    ids = list(bots.values_list("pk", flat=True))
    busiest = list(bots.annotate(n=Count("versions__participations"))
                   .order_by("-n").values_list("pk", flat=True)[:5])
    finished = Match.objects.using(alias).filter(status=MatchStatus.FINISHED)
    low, high = (finished.order_by(f).values_list("pk", flat=True).first()
                 for f in ("pk", "-pk"))
    matches = [m for m in (finished.filter(pk__gte=rng.randint(low, high))
                           .order_by("pk").values_list("pk", flat=True).first()
                           for _ in range(60)) if m]
    return {
        "health (SELECT 1)": ["/health/"],
        "ladder page, first page": [f"/ladders/{ladder.slug}/" for ladder in ladders],
        "ladder page, random page": deep,
        "rankings API, first page": [f"/api/ladders/{ladder.slug}/rankings/"
                                     for ladder in ladders],
        "bot page, random bots": [f"/bots/{pk}/" for pk in rng.sample(ids, min(40, len(ids)))],
        "bot page, 5 busiest bots": [f"/bots/{pk}/" for pk in busiest],
        "match page, random matches": [f"/matches/{pk}/" for pk in matches],
        "statistics page, random bots": [f"/bots/{pk}/stats/"
                                         for pk in rng.sample(ids, min(40, len(ids)))],
        "statistics page, 5 busiest": [f"/bots/{pk}/stats/" for pk in busiest],
        "statistics API, 5 busiest": [f"/api/bots/{pk}/stats/" for pk in busiest],
    }


def get(conn: http.client.HTTPConnection, path: str) -> float:
    start = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    took = time.perf_counter() - start
    if response.status != 200:
        raise SystemExit(f"GET {path}: {response.status}; the server's log says why")
    return took


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU of each of ``pids`` so far (from /proc; vanished ones left out)."""
    seconds = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
    return seconds


def group_pids(group: int) -> list[int]:
    """The processes of process group ``group`` (from /proc)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[2]) == group:
                pids.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return pids


def server_pids(group: int, database: str) -> list[int]:
    """The web server's processes (its process group) and the database sessions on
    ``database`` other than this one."""
    import psycopg

    pids = group_pids(group)
    with psycopg.connect(admin_url()) as conn:
        pids += [pid for (pid,) in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [database])]
    return pids


def measure(base: str, paths: list[str], clients: int, requests: int,
            server: tuple[int, str]) -> Timings:
    """``requests`` GETs per client, each client on its own kept-alive connection, cycling
    through ``paths`` from a different starting point."""
    host, port = urlsplit(base).hostname, urlsplit(base).port
    timings = Timings()
    lock = threading.Lock()
    start_line = threading.Barrier(clients + 1)

    def client(n: int) -> None:
        conn = http.client.HTTPConnection(host, port, timeout=60)
        mine = []
        start_line.wait()
        for i in range(requests):
            mine.append(get(conn, paths[(n * 7 + i) % len(paths)]))
        conn.close()
        with lock:
            timings.seconds.extend(mine)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    before = cpu_seconds(server_pids(*server))
    start_line.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    timings.wall = time.perf_counter() - began
    after = cpu_seconds(server_pids(*server))
    # a session opened meanwhile counts whole; one closed meanwhile would be lost (none is:
    # connections are kept for the run)
    timings.cpu = sum(t - before.get(pid, 0.0) for pid, t in after.items())
    return timings


def run_site(base: str, urls: dict[str, list[str]], clients: list[int], requests: int,
             group: int, database: str) -> dict[tuple[str, int], Timings]:
    conn = http.client.HTTPConnection(urlsplit(base).hostname, urlsplit(base).port)
    for paths in urls.values():  # warm: templates compiled, connections open, cache read
        for path in paths * 2:
            get(conn, path)
    conn.close()
    results = {}
    for n in clients:
        for name, paths in urls.items():
            per_client = requests if n == 1 else max(10, 2 * requests // n)
            results[(name, n)] = measure(base, paths, n, per_client, (group, database))
            print(f"  {name}, {n} client{'s' if n > 1 else ''}: "
                  f"p95 {results[(name, n)].p95:.1f} ms", file=sys.stderr, flush=True)
    return results


def _only(urls: dict[str, list[str]], names: list[str]) -> dict[str, list[str]]:
    """The pages named (by the start of their names), with /health/ as the floor."""
    if not names:
        return urls
    return {k: v for k, v in urls.items() if k.startswith(("health", *names))}


def target_for(name: str) -> float | None:
    return next((ms for page, ms in TARGETS.items() if name.startswith(page)), None)


def report(large: dict, small: dict, clients: list[int], sizes: str) -> None:
    print(f"\n{sizes}")
    print(f"{'page':<28} {'clients':>7} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
          f"{'req/s':>7} {'cpu ms':>7} {'small p95':>10} {'ratio':>6}  target (p95, 1 client)")
    for name, n in large:
        t = large[(name, n)]
        base = small.get((name, n))
        ratio = f"{t.p95 / base.p95:5.1f}x" if base else "     -"
        target = target_for(name)
        verdict = ""
        if target is not None and n == 1:
            verdict = f"≤ {target:.0f} ms — {'met' if t.p95 <= target else 'NOT met'}"
        base_p95 = f"{base.p95:10.1f}" if base else f"{'-':>10}"
        print(f"{name:<28} {n:>7} {t.p50:8.1f} {t.p95:8.1f} {t.max:8.1f} {t.rate:7.0f} "
              f"{t.cpu_ms:7.1f} {base_p95} {ratio}  {verdict}")
    print("cpu ms: CPU time of the web server and its database sessions per request (the "
          "same on a busy or an idle machine); ratio: p95 here / p95 on the small league")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200,
                        help="requests per page with one client (16 clients: twice as many "
                             "in all)")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 16])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--small-bots", type=int, default=500)
    parser.add_argument("--small-matches", type=int, default=10000)
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the small league (no ratios)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="+", default=[],
                        help="time only the pages whose names start so ('statistics')")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        raise SystemExit("set DATABASE_URL to the PostgreSQL database holding the scale data "
                         "set (python -m benchmarks.scale_data)")
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings"
    import django
    from django.conf import settings

    django.setup()
    # The small league's database, as a second alias (connected once it exists).
    settings.DATABASES["small"] = {**settings.DATABASES["default"], "NAME": SMALL_DB}
    from django.db import connections

    from benchmarks.scale.generate import generated_bots
    from league.bots.models import Bot
    from league.ladders.models import Match

    if not generated_bots():
        raise SystemExit("no generated data set in this database: run "
                         "`python -m benchmarks.scale_data` first (see docs/benchmarks.md)")
    sizes = (f"large: {Bot.objects.count():,} bots, {Match.objects.count():,} matches "
             f"({settings.DATABASES['default']['NAME']})")
    log = Path(tempfile.mkdtemp(prefix="botleague-pages-")) / "server.log"
    small: dict = {}
    try:
        if not args.no_baseline:
            print("making the small league for the baseline...", file=sys.stderr, flush=True)
            small_url = make_small_league(args.small_bots, args.small_matches)
            urls = _only(pages("small", random.Random(args.seed)), args.only)
            sizes += (f"; small: {Bot.objects.using('small').count():,} bots, "
                      f"{Match.objects.using('small').count():,} matches")
            connections["small"].close()
            print("small league:", file=sys.stderr, flush=True)
            with serving(small_url, args.port, log) as (base, group):
                small = run_site(base, urls, args.clients, args.requests, group, SMALL_DB)
        started = time.monotonic()
        if filled := fill_statistics(os.environ["DATABASE_URL"]):
            print(f"statistics filled: {filled:,} rows in {time.monotonic() - started:.0f} s",
                  file=sys.stderr, flush=True)
        urls = _only(pages("default", random.Random(args.seed)), args.only)
        connections["default"].close()
        print("large league:", file=sys.stderr, flush=True)
        with serving(os.environ["DATABASE_URL"], args.port, log) as (base, group):
            large = run_site(base, urls, args.clients, args.requests, group,
                             settings.DATABASES["default"]["NAME"])
    finally:
        connections.close_all()
        if not args.no_baseline:
            drop_small_league()
    report(large, small, args.clients, sizes)
    print(f"server log: {log}")


if __name__ == "__main__":
    main()
