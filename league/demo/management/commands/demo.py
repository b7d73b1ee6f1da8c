"""``./manage.py demo``: demo users and bots on every ladder, and the demo's tournaments (run
by ``./dev up``; idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from league.demo.competitions import demo_competitions_install
from league.demo.seasons import demo_seasons_install
from league.demo.services import demo_install
from league.demo.version_test import demo_version_test_install


class Command(BaseCommand):
    help = ("Create the demo users and upload the demo bots on every ladder through the "
            "ordinary upload service. Running it again uploads only bots whose source "
            "changed.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--quiet", action="store_true",
                            help="print only what could not be uploaded")

    def handle(self, *args: Any, **options: Any) -> None:
        quiet = options["quiet"] or options["verbosity"] == 0
        report = demo_install()
        tournaments = demo_competitions_install()
        if (season := demo_seasons_install()) and not quiet:
            self.stdout.write(f"demo season: {season.ladder.title} plays seasons of 15 "
                              f"minutes; the first ends at {season.ends_at:%H:%M:%S} UTC")
        if demo_version_test_install() and not quiet:
            self.stdout.write("demo version test: testy-tess v2 (perfect) must beat v1 "
                              "(random) to take her place on the Stones ladder")
        if tournaments and not quiet:
            self.stdout.write("demo tournaments: " + ", ".join(
                f"{t.name} (starts {t.starts_at:%H:%M:%S} UTC)" for t in tournaments))
        if report.users_created and not quiet:
            self.stdout.write(f"demo users created: {', '.join(report.users_created)}")
        for ladder in report.ladders:
            if not quiet:
                self.stdout.write(ladder.summary())
            for problem in ladder.problems:
                self.stderr.write(f"{ladder.title}: {problem}")
