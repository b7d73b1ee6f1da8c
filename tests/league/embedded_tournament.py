"""Run by ``test_tournaments_embedded.py`` in a process of its own on the embedded default
(SQLite, kombu's filesystem broker, no Redis): a real Celery worker plays a small tournament
and a challenge while this process plays the beat. Prints what happened as JSON."""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import subprocess
import sys
import time

import django


def main() -> None:
    assert "DATABASE_URL" not in os.environ and "REDIS_URL" not in os.environ
    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone

    from league.competitions.models import Challenge, Tournament
    from league.competitions.progress import competitions_tick
    from league.competitions.selectors import tournament_table
    from league.competitions.services import (
        challenge_create,
        entry_register,
        tournament_create,
    )
    from league.ladders.models import Match
    from tests.league import bots
    from tests.league.pages import active

    call_command("migrate", verbosity=0)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "league", "worker", "-l", "warning", "-c", "2",
         "--without-mingle", "--without-gossip"], env=os.environ.copy(),
        start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        alice = User.objects.create_user("alice")
        versions = [active(alice, f"e{i}", source=(bots.RANDOM, bots.FIRST)[i % 2])
                    for i in range(4)]
        now = timezone.now()
        t = tournament_create(user=alice, name="embedded", game="stones",
                              format="round_robin", games_per_series=2, field_limit=4,
                              registration_closes=now + dt.timedelta(seconds=1),
                              starts_at=now + dt.timedelta(seconds=1))
        for v in versions:
            entry_register(tournament=t, bot=v.bot, user=alice)
        challenge = challenge_create(user=alice, bot=versions[0].bot, builtin="random",
                                     games_count=3)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            competitions_tick()
            t.refresh_from_db()
            challenge.refresh_from_db()
            if t.state == "finished" and challenge.state == "finished":
                break
            time.sleep(0.5)
        table = [(row.entry.bot.name, row.points) for row in tournament_table(t)]
        print(json.dumps({
            "engine": settings.DATABASES["default"]["ENGINE"],
            "tournament": Tournament.objects.get(pk=t.pk).state,
            "challenge": Challenge.objects.get(pk=challenge.pk).state,
            "statuses": sorted(set(Match.objects.filter(kind__in=["tournament", "challenge"])
                                   .values_list("status", flat=True))),
            "games": Match.objects.filter(kind="tournament").count(),
            "table": table}))
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(60)
        except subprocess.TimeoutExpired:  # a busy machine: what it wrote is what counts
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


if __name__ == "__main__":
    main()
