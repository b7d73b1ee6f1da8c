"""``manage.py up`` (what ``./dev up`` runs): migrate, load the demo, start the league."""

from __future__ import annotations

import logging
import os

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from league import supervise
from league.ladders.reaper import reaper_tick


class Command(BaseCommand):
    help = "Run the whole league on this machine: web server, Celery worker and beat."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")),
                            help="port of the web server (default: $PORT or 8000)")
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                            help="matches played at once (default: one per core)")
        parser.add_argument("--no-demo", action="store_true", help="do not load the demo bots")

    def handle(self, *args: object, **options: object) -> None:
        say = self.stderr.write
        # The terminal gets the few lines below and the address; the league's own log lines
        # (a match enqueued for every demo pairing) belong in var/logs, with the processes'.
        logging.getLogger("league").setLevel(logging.WARNING)
        say("migrating the database")
        call_command("migrate", verbosity=0, skip_checks=False)  # ops.checks among them
        if not options["no_demo"]:
            say("loading the demo bots")
            call_command("demo", quiet=True)
        reaper_tick()  # matches a previous run left running go back to the queue
        code = supervise.run(options["host"], options["port"], options["workers"], say)
        raise SystemExit(code)
