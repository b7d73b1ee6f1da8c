"""Playing against a bot: how long a person waits for the bot's reply beyond the bot's own
thinking, and what a person's seat costs a worker while it waits.

**Latency.** From the person's move sent (the HTTP POST to the play API) to the bot's reply
visible in the state endpoint (the long poll answering with the person's turn again), minus
the bot's own thinking time (its moves' seconds as the referee timed them), over games of
``--game`` against its built-in ``--opponent``, on the embedded default (SQLite, the
filesystem broker) and on PostgreSQL + Redis (a scratch database, ``BENCH_REDIS_URL``): a
live league of gunicorn and a play worker, driven as the play page drives it. Baseline, in
the same run: the same exchange through ``sandbox.run_match`` alone, with a move source that
answers at once (from its answer to its next question, minus the bot's seconds): what the
referee and the sandbox cost with no web server, database or broker. Target: p95 <= 250 ms.

**A waiting seat's CPU.** The play worker's processes (main process, pool processes and the
bot, read from /proc) over ``--wait`` seconds while the person does not move, against the
same worker over the same time with no game at all.

    .venv/bin/python -m benchmarks.play_latency [--moves 60] [--wait 30] [--only embedded]
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
import time
from pathlib import Path
from typing import Any

import requests

from benchmarks import play_league
from benchmarks.play_league import PlayLeague

SETTINGS = {
    "LEAGUE_PLAY_GAMES_RATE": "100000/hour", "API_THROTTLE_PLAY": "100000/min",
    "LEAGUE_SIGNUPS_PER_ADDRESS": "100000/hour", "LEAGUE_PLAY_MOVE_SECONDS": "600",
    "LEAGUE_PLAY_GAME_SECONDS": "3600", "LEAGUE_HEARTBEAT_SECONDS": "5",
}
"""The league's defaults, but no rate in the way of a benchmark and a clock that never runs
out while the CPU of a waiting seat is measured."""


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# -- the baseline: the referee alone ---------------------------------------------------------

def direct_latencies(game: str, opponent: str, moves: int, seed: int) -> list[float]:
    """Seconds from a source's answer to its next question, minus the bot's moves between."""
    from league.ladders.defaults import DEFAULT_LADDERS
    from sandbox import Limits, MoveRequest, MoveSource, run_match

    ladder = next(spec for spec in DEFAULT_LADDERS if spec["game"] == game)

    class Instant(MoveSource):
        name = "person"

        def __init__(self) -> None:
            self.answered: float | None = None
            self.gaps: list[tuple[int, float]] = []  # (turn asked, seconds since answer)
            self.rng = random.Random(seed)

        def ask(self, request: MoveRequest) -> str:
            now = time.perf_counter()
            if self.answered is not None:
                self.gaps.append((request.turn, now - self.answered))
            move = self.rng.choice(playable(request.legal_moves or []))
            self.answered = time.perf_counter()
            return move

    samples: list[float] = []
    game_seed = seed
    while len(samples) < moves:
        source = Instant()
        record = run_match(game, [source, f"builtin:{opponent}"],
                           options=ladder.get("options"), seed=game_seed,
                           limits=Limits.from_json(ladder.get("limits", {})))
        game_seed += 1
        seats = [m.seat for m in record.moves]
        times = [m.time for m in record.moves]
        asked = 0
        for turn, gap in source.gaps:
            bot = sum(t for s, t in zip(seats[asked:turn], times[asked:turn], strict=True)
                      if s == 1)
            samples.append(gap - bot)
            asked = turn
    return samples[:moves]


def playable(legal: list[str]) -> list[str]:
    """A person's choice among the legal moves: not Wizard Duel's looks (a look skips the
    looker's next turns, so the bot would move several times for one of the person's)."""
    return [m for m in legal if not m.startswith("look ")] or legal


# -- the league ------------------------------------------------------------------------------

def finish(league: PlayLeague, person: requests.Session, match: int, state: dict[str, Any],
           rng: random.Random) -> None:
    """Play the person's moves at random from ``state`` until the game ends, unmeasured: a
    measure ends its game so that none is left running into the next."""
    while state["status"] in ("queued", "running"):
        if state["your_turn"]:
            league.move(person, match, rng.choice(state["legal_moves"]), state["step"])
        state = league.state(person, match, since=state["step"], status=state["status"])


def league_latencies(league: PlayLeague, game: str, opponent: str, moves: int, seed: int
                     ) -> list[float]:
    """Seconds from each move's POST to the state showing the person's turn again, minus the
    bot's seconds for the moves in between, over as many games as it takes."""
    rng = random.Random(seed)
    person = league.login("bench")
    samples: list[float] = []
    while len(samples) < moves:
        match = league.start(person, opponent=f"builtin:{opponent}", game=game, seat=0)
        state = league.wait_state(person, match, lambda s: s["your_turn"]
                                  and s["status"] == "running")
        while state["your_turn"] and len(samples) < moves:
            step = state["step"]
            sent = time.perf_counter()
            answer = league.move(person, match, rng.choice(playable(state["legal_moves"])),
                                 step)
            assert answer.status_code == 200, answer.text
            # as the page does: wait past the step it has, until it is the person's turn again
            state = league.state(person, match, since=step, status=state["status"])
            while not state["your_turn"] and state["status"] == "running":
                state = league.state(person, match, since=state["step"],
                                     status=state["status"])
            seen = time.perf_counter()
            if state["status"] != "running":
                break  # the game ended on this move: no reply to wait for
            bot = sum(m["seconds"] for m in state["moves"][step + 1:] if m["seat"] != 0)
            samples.append(seen - sent - bot)
        finish(league, person, match, state, rng)
    return samples


def waiting_cpu(league: PlayLeague, game: str, opponent: str, wait: float
                ) -> tuple[float, float]:
    """CPU seconds of the play worker's processes over ``wait`` seconds: while a person's
    seat waits for a move, and with no game at all."""
    person = league.login("bench")
    match = league.start(person, opponent=f"builtin:{opponent}", game=game, seat=0)
    league.wait_state(person, match, lambda s: s["your_turn"] and s["status"] == "running")
    time.sleep(2)  # the ask written, the bot paused, the first heartbeats gone by
    before = league.play.cpu_seconds()
    time.sleep(wait)
    waiting = league.play.cpu_seconds() - before
    finish(league, person, match, league.state(person, match), random.Random(1))
    time.sleep(2)
    before = league.play.cpu_seconds()
    time.sleep(wait)
    idle = league.play.cpu_seconds() - before
    return waiting, idle


def setup() -> None:
    """The benchmark's person (run in a process with the league's settings)."""
    import django

    django.setup()
    from django.contrib.auth.models import User

    from league.ladders.defaults import ladders_install
    from league.ladders.models import Ladder

    ladders_install(Ladder)
    User.objects.create_user("bench", password=play_league.PASSWORD)


def scratch_database() -> str:
    """A fresh PostgreSQL database beside ``DATABASE_URL``'s, migrated; its URL."""
    import psycopg

    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/botleague")
    server, _, name = base.rpartition("/")
    scratch = f"{name}_playbench"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{scratch}"')
    return f"{server}/{scratch}"


def drop_database(url: str) -> None:
    import psycopg

    server, _, name = url.rpartition("/")
    with psycopg.connect(f"{server}/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_setup(kind: str, args: argparse.Namespace, base: Path) -> dict[str, Any]:
    data = base / kind
    data.mkdir(parents=True)
    database = None if kind == "embedded" else scratch_database()
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
    env = play_league.league_env(database, data, SETTINGS, redis_url=redis_url)
    try:
        if database is not None:
            import redis

            redis.Redis.from_url(redis_url).flushdb()
        for step in (["manage.py", "migrate", "-v", "0"],
                     ["-m", "benchmarks.play_latency", "setup"]):
            subprocess.run([sys.executable, *step], cwd=play_league.ROOT, env=env, check=True,
                           timeout=600)
        port = args.port or play_league.free_port()
        logs = base / f"{kind}-logs"
        with play_league.league_processes(env, logs, port=port, play_slots=2) as (web, play):
            league = PlayLeague(url=f"http://127.0.0.1:{port}", env=env, web=web, play=play,
                                cast={}, embedded=database is None)
            latencies = league_latencies(league, args.game, args.opponent, args.moves,
                                         args.seed)
            plain = plain_state(league, args.game, args.opponent)
            waiting, idle = waiting_cpu(league, args.game, args.opponent, args.wait)
    finally:
        if database is not None:
            drop_database(database)
    return {"latencies": latencies, "plain_state": plain, "waiting_cpu": waiting,
            "idle_cpu": idle}


def plain_state(league: PlayLeague, game: str, opponent: str, repeat: int = 30
                ) -> dict[str, list[float]]:
    """Seconds a state request takes when it need not wait (the web's own cost per answer),
    and the site's floor: a request that reads nothing (``/favicon.ico``'s redirect)."""
    person = league.login("bench")
    match = league.start(person, opponent=f"builtin:{opponent}", game=game, seat=0)
    league.wait_state(person, match, lambda s: s["your_turn"] and s["status"] == "running")
    samples: dict[str, list[float]] = {"state": [], "floor": []}
    for _ in range(repeat):
        began = time.perf_counter()
        league.state(person, match)
        samples["state"].append(time.perf_counter() - began)
        began = time.perf_counter()
        person.get(f"{league.url}/favicon.ico", allow_redirects=False, timeout=30)
        samples["floor"].append(time.perf_counter() - began)
    finish(league, person, match, league.state(person, match), random.Random(2))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="stones")
    parser.add_argument("--opponent", default="random", help="a built-in player of the game")
    parser.add_argument("--moves", type=int, default=60, help="moves measured per setup")
    parser.add_argument("--wait", type=float, default=30.0,
                        help="seconds of waiting measured for the CPU of a waiting seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=0, help="the web server's (else free)")
    parser.add_argument("--only", choices=["embedded", "postgres"], default=None)
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
    load = os.getloadavg()
    direct = direct_latencies(args.game, args.opponent, args.moves, args.seed)
    results: dict[str, Any] = {"direct": direct, "load": load}
    with tempfile.TemporaryDirectory(prefix="play-bench-") as folder:
        base = Path(folder)
        base.chmod(0o755)  # bots read their cached versions below it
        for kind in ("embedded", "postgres"):
            if args.only in (None, kind):
                results[kind] = run_setup(kind, args, base)
    report(args, results)
    if args.json:
        print(json.dumps(results))


def report(args: argparse.Namespace, results: dict[str, Any]) -> None:
    direct = results["direct"]
    print(f"\n{args.game} against built-in {args.opponent}: {args.moves} moves a setup; "
          f"load average {results['load'][0]:.1f} at the start, {os.cpu_count()} cores")
    print("\nMove sent to the bot's reply visible, minus the bot's thinking (baseline: the "
          "referee alone, in ms)")
    print(f"{'setup':<40} {'p50':>8} {'p95':>8} {'max':>8} {'base p50':>9} {'base p95':>9}"
          f"  target")
    for kind, title in (("embedded", "embedded (SQLite, filesystem broker)"),
                        ("postgres", "PostgreSQL + Redis")):
        if kind not in results:
            continue
        got = results[kind]["latencies"]
        print(f"{title:<40} {percentile(got, 50) * 1000:>8.1f} "
              f"{percentile(got, 95) * 1000:>8.1f} {max(got) * 1000:>8.1f} "
              f"{percentile(direct, 50) * 1000:>9.2f} {percentile(direct, 95) * 1000:>9.2f}"
              f"  p95 <= 250")
        plain = results[kind]["plain_state"]
        print(f"{'':<4}one state request answered at once: median "
              f"{statistics.median(plain['state']) * 1000:.1f} ms; a request that reads "
              f"nothing: {statistics.median(plain['floor']) * 1000:.1f} ms")
    print(f"\n{'play worker CPU over the wait':<52} {'waiting':>10} {'idle':>10} "
          f"{'difference':>12}")
    for kind in ("embedded", "postgres"):
        if kind in results:
            w, i = results[kind]["waiting_cpu"], results[kind]["idle_cpu"]
            print(f"{kind + f' ({args.wait:g} s)':<52} {w:>9.3f}s {i:>9.3f}s "
                  f"{w - i:>+11.3f}s  ({(w - i) / args.wait * 100:+.2f} % of a core)")
    print(f"\nmedian direct exchange {statistics.median(direct) * 1000:.1f} ms")


if __name__ == "__main__":
    if sys.argv[1:] == ["setup"]:
        setup()
    else:
        main()
