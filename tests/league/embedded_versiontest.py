"""Run by ``test_version_tests_embedded.py`` in a process of its own on the embedded default
(SQLite, kombu's filesystem broker, no Redis): a real Celery worker (match and ticks queues)
validates two uploads with a test and plays their tests, the validation's bell starting
each: the starter bot's against a random active version (H1: promoted) and a copy of a
random bot's against itself (H0 or undecided: left out). This process plays the beat's tick
for tests (as ``./dev up``'s beat would) only as a fallback. Prints what happened as JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import django

from benchmarks.common import stop_group

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    assert "DATABASE_URL" not in os.environ and "REDIS_URL" not in os.environ
    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from league.bots.models import Bot, BotVersion
    from league.versiontests.models import VersionTest
    from league.versiontests.uploads import version_upload_tested
    from tests.league import bots
    from tests.league.pages import active

    call_command("migrate", verbosity=0)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "league", "worker", "-l", "warning", "-c", "2",
         "-Q", "celery,ticks", "--without-mingle", "--without-gossip"], env=os.environ.copy(),
        start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        alice = User.objects.create_user("alice")
        # the engine's perfect player (the demo's Tess v2): clearly stronger than a random
        # one on the ladder's holed board, where the starter leaves too many pairs shared
        from league.demo.version_test import STRONG as strong
        olds = {"better": active(alice, "better"), "copy": active(alice, "copy")}
        news = {"better": version_upload_tested(owner=alice, game="stones", name="better",
                                                filename="main.py", data=strong,
                                                max_games=80),
                "copy": version_upload_tested(owner=alice, game="stones", name="copy",
                                              filename="main.py", data=bots.RANDOM.encode(),
                                              max_games=12)}
        began = time.monotonic()
        deadline = began + 240
        while time.monotonic() < deadline:
            states = [v.status for v in BotVersion.objects.filter(
                pk__in=[n.pk for n in news.values()])]
            if all(s in ("active", "retired", "rejected") for s in states):
                break
            time.sleep(0.5)
        seen = {}
        for name, new in news.items():
            new.refresh_from_db()
            test = VersionTest.objects.filter(candidate=new, promotes=True).first()
            seen[name] = {"status": new.status, "reason": new.reason,
                          "test": test.state if test else None,
                          "active": Bot.objects.get(pk=new.bot_id).active_version_id
                          == new.pk,
                          "old_active": Bot.objects.get(pk=new.bot_id).active_version_id
                          == olds[name].pk}
        print(json.dumps({"engine": settings.DATABASES["default"]["ENGINE"],
                          "seconds": round(time.monotonic() - began, 1), **seen}))
    finally:
        stop_group(worker, 60)


if __name__ == "__main__":
    main()
