"""``manage.py standings_recount [--fix]``: the standings' counters against the matches."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from league.ladders.recount import standings_recount


class Command(BaseCommand):
    help = ("Recount every standing from the finished matches (games, W/L/D, score sums, the "
            "rating, the recent count matchmaking reads) and list those that differ; --fix "
            "sets them to the recount. Exits 1 when any differ and --fix was not given.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--fix", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        differences = standings_recount(fix=options["fix"])
        for d in differences:
            what = ", ".join(f"{name} {kept:.4g} → {counted:.4g}"
                             for name, (kept, counted) in d.fields.items())
            self.stdout.write(f"{d.standing.version} on {d.standing.ladder.slug}: {what}")
        verdict = "set right" if options["fix"] else "differ"
        self.stdout.write(f"{len(differences)} standing(s) {verdict}" if differences
                          else "every standing agrees with its matches")
        if differences and not options["fix"]:
            raise SystemExit(1)
