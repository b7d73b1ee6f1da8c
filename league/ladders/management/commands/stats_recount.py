"""``manage.py stats_recount [--fix]``: the statistics' sums against the matches; with
``--fix``, the backfill of matches finished before the sums were kept."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from league.ladders.stats import stats_recount


class Command(BaseCommand):
    help = ("Recount every version's statistics (W/L/D, scores, forfeits by kind, game "
            "lengths, move times, by opponent, seat and seed) from the finished ladder "
            "matches and their replays, and list the rows that differ; --fix rebuilds them "
            "(also the backfill after upgrading). Reads every replay: run it with the workers "
            "stopped. Exits 1 when any differ and --fix was not given.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--fix", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        wrong = stats_recount(fix=options["fix"])
        for (version, opponent, seat, seed), what in wrong[:200]:
            self.stdout.write(f"version {version} against {opponent or '-'}, seat {seat}, "
                              f"seed {seed}: {what}")
        verdict = "set right" if options["fix"] else "differ"
        self.stdout.write(f"{len(wrong)} row(s) {verdict}" if wrong
                          else "every version's statistics agree with its matches")
        if wrong and not options["fix"]:
            raise SystemExit(1)
