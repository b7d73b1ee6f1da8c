"""Run by ``test_tournaments_embedded.py`` in a process of its own on the embedded default
(SQLite, kombu's filesystem broker, no Redis): a real Celery worker (match and ticks queues)
plays the issue's four tournaments and a challenge at once while this process plays the beat,
then each is checked as test_tournaments.py checks it on PostgreSQL (``tournament_checks``).
Prints what happened as JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import traceback

import django

from benchmarks.common import stop_group


def main() -> None:
    assert "DATABASE_URL" not in os.environ and "REDIS_URL" not in os.environ
    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from league.competitions.models import Challenge
    from league.competitions.progress import competitions_tick
    from league.competitions.services import challenge_create
    from league.ladders.models import Match
    from tests.league import bots
    from tests.league.competition_world import enter, make_tournament, registration_over
    from tests.league.pages import active
    from tests.league.tournament_checks import (
        check_double_elimination,
        check_round_robin,
        check_scored,
        check_swiss,
    )

    call_command("migrate", verbosity=0)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "league", "worker", "-l", "warning", "-c", "2",
         "-Q", "celery,ticks", "--without-mingle", "--without-gossip"], env=os.environ.copy(),
        start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        alice = User.objects.create_user("alice")
        stones = [active(alice, f"s{i}", source=(bots.RANDOM, bots.FIRST)[i % 2])
                  for i in range(8)]
        sliders = [active(alice, f"g{i}", game="g2048", source=(bots.RANDOM, bots.FIRST)[i % 2])
                   for i in range(3)]

        def make(fmt: str, field: list, game: str = "stones", **options: object):
            # times relative to the moment of submission (made, entered, then the clock
            # moved), whatever the set-up's work before cost on a loaded machine
            options.setdefault("games_per_series", 1)
            t = make_tournament(alice, fmt, game, field_limit=len(field), **options)
            enter(t, field)
            registration_over(t)
            return t

        made = {
            "swiss": (make("swiss", stones, rounds=3), lambda t: check_swiss(t, rounds=3)),
            "double_elimination": (make("double_elimination", stones[:6]),
                                   check_double_elimination),
            "round_robin": (make("round_robin", stones[:5]), lambda t: check_round_robin(t, 5)),
            "scored": (make("scored", sliders, game="g2048", games_per_series=2),
                       lambda t: check_scored(t, entries=3, runs=2)),
        }
        challenge = challenge_create(user=alice, bot=stones[0].bot, builtin="random",
                                     games_count=3)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            competitions_tick()
            for t, _ in made.values():
                t.refresh_from_db()
            challenge.refresh_from_db()
            if all(t.state == "finished" for t, _ in made.values()) \
                    and challenge.state == "finished":
                break
            time.sleep(0.5)
        checked = {}
        for fmt, (t, check) in made.items():
            try:
                assert t.state == "finished", (t.state, t.note)
                check(t)
                checked[fmt] = "ok"
            except AssertionError:
                checked[fmt] = traceback.format_exc(limit=3)
        print(json.dumps({
            "engine": settings.DATABASES["default"]["ENGINE"],
            "checked": checked,
            "challenge": Challenge.objects.get(pk=challenge.pk).state,
            "challenge_games": sorted(Match.objects.filter(challenge_game__challenge=challenge)
                                      .values_list("status", flat=True)),
            "statuses": sorted(set(Match.objects.filter(kind__in=["tournament", "challenge"])
                                   .values_list("status", flat=True)))}))
    finally:
        stop_group(worker, 60)  # what it wrote is what counts: no hurry


if __name__ == "__main__":
    main()
