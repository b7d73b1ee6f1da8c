"""Tournament overhead: a tournament's games played through the league (each game released,
queued, claimed, played and written by a Celery worker; its rounds paired and its games
released by the bell each ended game rings, on the ticks' worker) against the same games
(bots, seeds, seats, limits, backend) played directly through ``sandbox.run_match`` one after
another, alternating in the same run.

    .venv/bin/python -m benchmarks.tournament_overhead [--entries 6] [--games 2] [--rounds 8]
                                                       [--embedded]

Each round makes a round robin of ``--entries`` bots with ``--games`` games a series (6
entries: 5 rounds of the format, 15 series, 30 games) and times it from its start to its last
game written; the match worker runs one match at a time, like the direct loop, and a ticks
worker (one process, as ``./dev up`` and compose run it) answers the bell. What the league adds
on top of the games: pairing each round once the last has finished, releasing the games, the
queue, the claim, the writes. PostgreSQL and Redis as ``benchmarks.league_overhead`` says.
Target (issue 19): within 10 %.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import logging
import os
import re
import shutil
import signal
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.league_overhead import BOTS, configure, drop_database, start_worker, wait_idle


def make_field(entries: int) -> list:
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from league.ladders.services import version_upload

    call_command("migrate", verbosity=0)
    owner = User.objects.create_user("bench", is_staff=True)
    source = BOTS["stones"].read_bytes()
    return [version_upload(owner=owner, game="stones", name=f"bench{i}", filename="main.py",
                           data=source + f"\n# copy {i}\n".encode(), limited=False)
            for i in range(entries)]


def through_league(versions: list, games: int, n: int) -> tuple[float, list[tuple]]:
    """Seconds from the tournament's start to its last game written, and the games it played
    (seed, seats) for the direct loop to play again."""
    from django.db.models import Max
    from django.utils import timezone

    from league.competitions.models import SeriesGame, Tournament
    from league.competitions.progress import competitions_tick
    from league.competitions.services import entry_register, tournament_create
    from league.ladders.models import Match

    owner = versions[0].bot.owner
    now = timezone.now()
    t = tournament_create(user=owner, name=f"bench {n}", game="stones", format="round_robin",
                          games_per_series=games, field_limit=len(versions),
                          registration_closes=now + dt.timedelta(hours=1),
                          starts_at=now + dt.timedelta(hours=1))
    for v in versions:
        entry_register(tournament=t, bot=v.bot, user=owner)
    # its start brought forward to now (a window of a fraction of a second closed before a
    # loaded machine had registered the field)
    now = timezone.now()
    Tournament.objects.filter(pk=t.pk).update(registration_closes=now, starts_at=now)
    start = time.time()
    competitions_tick()  # the start: round 1 paired and released; the bell does the rest
    while Tournament.objects.get(pk=t.pk).state != "finished":
        time.sleep(0.5)  # a few looks a second: the cores are the matches'
    played = Match.objects.filter(series_game__series__tournament=t)
    end = played.aggregate(end=Max("finished_at"))["end"].timestamp()
    TIMELINES.append(timeline(start, played))
    games_played = [(g.match.seed, (g.first.version, g.second.version))
                    for g in SeriesGame.objects.filter(series__tournament=t)
                    .select_related("match", "first__version", "second__version")]
    return end - start, games_played


@dataclass
class Timeline:
    """Where a tournament's time went, in seconds, from its games' own stamps (made, claimed,
    written; the referee's clock): each game's cycle inside a round (its claim to the next
    game's), its time in play, and each round's end (the last game written, the next round's
    games made, the first of them claimed), the start's likewise (from the tick)."""

    cycles: list[float] = field(default_factory=list)
    playing: list[float] = field(default_factory=list)
    to_made: list[float] = field(default_factory=list)
    to_claimed: list[float] = field(default_factory=list)
    start: tuple[float, float] = (0.0, 0.0)


def timeline(start: float, played) -> Timeline:
    rows = sorted(played.values_list("started_at", "finished_at", "created_at", "duration",
                                     "series_game__series__round"))
    line = Timeline(playing=[row[3] for row in rows])
    line.start = (rows[0][2].timestamp() - start, (rows[0][0] - rows[0][2]).total_seconds())
    for before, after in itertools.pairwise(rows):
        if after[4] == before[4]:
            line.cycles.append((after[0] - before[0]).total_seconds())
        else:
            line.to_made.append((after[2] - before[1]).total_seconds())
            line.to_claimed.append((after[0] - after[2]).total_seconds())
    return line


TIMELINES: list[Timeline] = []


def directly(ladder, games_played: list[tuple]) -> float:
    from league.ladders.versions_cache import version_folder
    from sandbox import BotSpec, run_match

    specs = {}
    for _, seats in games_played:
        for v in seats:
            specs.setdefault(v.pk, BotSpec(str(version_folder(v)), label=str(v)))
    times = []
    start = time.perf_counter()
    for seed, (a, b) in games_played:
        began = time.perf_counter()
        record = run_match(ladder.game, [specs[a.pk], specs[b.pk]], options=ladder.options,
                           seed=seed, limits=ladder.sandbox_limits, backend=ladder.backend)
        times.append(time.perf_counter() - began)
        DIRECT_PLAYING.append(record.duration)
    DIRECT_GAMES.append(times)
    return time.perf_counter() - start


DIRECT_GAMES: list[list[float]] = []
DIRECT_PLAYING: list[float] = []
"""The referee's clock of each game played directly (``record.duration``)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=6)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--embedded", action="store_true",
                        help="SQLite and the filesystem broker instead of PostgreSQL and Redis")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="botleague-bench-"))
    data.chmod(0o755)
    # Ladders not refilled as matches end: the worker plays the validations, then only the
    # tournament's games (a refilled ladder would never leave it idle to wait for).
    configure(args.embedded, data, keep_busy=False)
    # no beat runs: the start is this script's one tick, then the bell does the pairing
    import django

    django.setup()
    logging.getLogger("league").setLevel(logging.WARNING)
    if not args.embedded:
        import redis
        from django.conf import settings

        redis.Redis.from_url(settings.REDIS_URL).flushdb()
    from league.ladders.models import Ladder

    versions = make_field(args.entries)
    worker = start_worker(data / "worker.log", "-Q", "celery")
    ticks = start_worker(data / "ticks.log", "-Q", "ticks", "-n", "ticks@%h")
    try:
        wait_idle()  # the validation matches
        for v in versions:
            v.refresh_from_db()
            if v.status != "active":
                raise SystemExit(f"{v} was not validated: {v.reason}")
        ladder = Ladder.objects.get(game="stones")
        report(args, ladder, versions)
        bell_cost(data / "ticks.log")
        worker_cost(data)
    finally:
        for process in (worker, ticks):
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if not args.embedded:
            drop_database()
        shutil.rmtree(data, ignore_errors=True)


def report(args: argparse.Namespace, ladder, versions: list) -> None:
    where = "SQLite + filesystem broker" if args.embedded else "PostgreSQL + Redis"
    print(f"a {args.entries}-entry round robin of {args.games}-game series a round, "
          f"{args.rounds} rounds, backend {ladder.backend}, league on {where}, one match at a "
          "time")
    league, direct = [], []
    for n in range(args.rounds):
        seconds, played = through_league(versions, args.games, n)
        league.append(seconds)
        direct.append(directly(ladder, played))
        print(f"  round {n + 1}: {len(played)} games: direct {direct[-1]:6.2f} s   "
              f"league {league[-1]:6.2f} s")
    overhead = statistics.median(q / b for q, b in zip(league, direct, strict=True)) - 1
    d, p = statistics.median(direct), statistics.median(league)
    print(f"{'':2}{'path':<40}{'s a tournament':>15}{'ratio':>8}")
    print(f"{'':2}{'sandbox.run_match, one after another':<40}{d:>15.2f}{1.0:>8.2f}")
    print(f"{'':2}{'through the league (rounds, queue, writes)':<40}{p:>15.2f}{p / d:>8.2f}")
    where_time_went()
    verdict = "met" if overhead <= 0.10 else "NOT met"
    print(f"tournament overhead {overhead * 100:+.1f} % (median of the rounds' ratios) — "
          f"target ≤ +10 %: {verdict}")


def where_time_went() -> None:
    """Medians, in ms, of the league's timelines against the direct loop's games."""
    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:.1f}" if values else "-"

    cycles = [c for line in TIMELINES for c in line.cycles]
    playing = [p for line in TIMELINES for p in line.playing]
    direct = [g for run in DIRECT_GAMES for g in run]
    print(f"  a game inside a round, claim to next claim: {ms(cycles)} ms (directly, one "
          f"run_match to the next: {ms(direct)} ms); in play, the referee's clock: "
          f"{ms(playing)} ms (directly: {ms(DIRECT_PLAYING)} ms)")
    made = [m for line in TIMELINES for m in line.to_made]
    claimed = [c for line in TIMELINES for c in line.to_claimed]
    print(f"  a round's end: last game written to the next round's games made {ms(made)} ms, "
          f"then to the first claimed {ms(claimed)} ms (median of {len(made)})")
    print(f"  the start: the tick to round 1's games made "
          f"{ms([line.start[0] for line in TIMELINES])} ms, to the first claimed "
          f"{ms([line.start[1] for line in TIMELINES])} ms more")


def bell_cost(log: Path) -> None:
    """What the bell costs where it runs, from the ticks worker's log: Celery's time for each
    ``match_ended`` (release the next games; at a round's end, pair the next round). Before,
    this ran in the match worker's writing thread, beside the next match."""
    seconds = sorted(float(s) for s in re.findall(
        r"match_ended_task\[[^]]+\] succeeded in ([0-9.]+)s", log.read_text(errors="replace")))
    if seconds:
        print(f"the bell, on the ticks worker: {len(seconds)} games, median "
              f"{statistics.median(seconds) * 1000:.0f} ms, 90th percentile "
              f"{seconds[int(0.9 * (len(seconds) - 1))] * 1000:.0f} ms a game")


def worker_cost(data: Path) -> None:
    """Where a game's time goes in the match worker, from its per-match log lines: the game
    as the referee timed it, and the rest of the task (claim, unpacking, the threads, the
    write), against a game played directly (``DIRECT_GAMES``)."""
    text = "\n".join(log.read_text(errors="replace") for log in data.rglob("*.log"))
    rows = [(float(total), float(playing)) for total, playing in re.findall(
        r"match \d+ attempt \d+: (\d+) ms in all: (\d+) ms playing", text)]
    games = [g for run in DIRECT_GAMES for g in run]
    if rows and games:
        print(f"a game in the worker (median of {len(rows)}): "
              f"{statistics.median(p for _, p in rows):.0f} ms playing, "
              f"{statistics.median(t - p for t, p in rows):.0f} ms more in its task; "
              f"directly: {statistics.median(games) * 1000:.0f} ms a game")


if __name__ == "__main__":
    main()
