"""Run by ``test_live_embedded.py`` in a process of its own on the embedded default (SQLite,
no Redis): a match is played by the league's runner in one thread while the viewer's reads
follow it from another, as a web process would. Prints what it saw as JSON."""

from __future__ import annotations

import json
import os
import threading
import time

import django


def main() -> None:
    assert "DATABASE_URL" not in os.environ and "REDIS_URL" not in os.environ
    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from league.ladders.models import Ladder, Match, Participant
    from league.ladders.replays import viewer_frames, viewer_header
    from league.ladders.running import match_run
    from tests.league import bots
    from tests.league.pages import active

    call_command("migrate", verbosity=0)
    alice = User.objects.create_user("alice")
    # 2048, as a game of Stones can end after four moves, before anything is published
    slow = active(alice, "slowpoke", game="g2048", source=bots.SLOW_START)
    match = Match.objects.create(ladder=Ladder.objects.get(game="g2048"), kind="challenge",
                                 seed=4)
    Participant.objects.create(match=match, seat=0, version=slow)
    outcome: list[str] = []

    def run() -> None:
        try:
            outcome.append(str(match_run(match_id=match.pk, worker="embedded")))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    seen = []
    while thread.is_alive():
        match.refresh_from_db()
        if match.status == "running":
            seen.append(viewer_frames(match=match, start=0, stop=1000)["total"])
        time.sleep(0.05)
    thread.join()
    match.refresh_from_db()
    header = viewer_header(match=match, user=alice)
    print(json.dumps({"engine": settings.DATABASES["default"]["ENGINE"], "outcome": outcome,
                      "seen": seen, "status": header["status"], "total": header["total"],
                      "result": header["result"] is not None}))


if __name__ == "__main__":
    main()
