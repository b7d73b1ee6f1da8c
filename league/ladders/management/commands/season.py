"""``manage.py season LADDER --length 7d [--starts ISO] [--carry 0.5] [--repeat] [--finals 8
--finals-format single_elimination [--freeze] [--release staff]]``: staff set
a ladder's next season from the terminal; ``--list`` shows its seasons."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.dateparse import parse_datetime

from league.ladders.models import FINALS_FORMATS, FinalsRelease, Ladder
from league.ladders.season_reads import ladder_seasons
from league.ladders.seasons import SeasonError, season_create

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def duration(text: str) -> timedelta:
    """"90s", "15m", "2h", "7d", "1w"."""
    found = re.fullmatch(r"(\d+)([smhdw])", text.strip())
    if not found:
        raise CommandError(f"a length is a number and a unit (90s, 15m, 2h, 7d, 1w), not "
                           f"{text!r}")
    return timedelta(seconds=int(found[1]) * UNITS[found[2]])


def moment(text: str) -> datetime:
    parsed = parse_datetime(text)
    if parsed is None or parsed.tzinfo is None:
        raise CommandError(f"a time is ISO 8601 with its zone (2026-05-01T18:00Z), not {text!r}")
    return parsed


class Command(BaseCommand):
    help = ("Make a ladder's next season (it starts at --starts, default now, and lasts "
            "--length or ends at --ends), or --list its seasons.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ladder", help="the ladder's slug (stones, 2048, ...)")
        parser.add_argument("--list", action="store_true")
        parser.add_argument("--starts", type=moment)
        parser.add_argument("--ends", type=moment)
        parser.add_argument("--length", type=duration)
        parser.add_argument("--carry", type=float, default=0.0,
                            help="fraction of each rating's distance from the start kept, 0-1")
        parser.add_argument("--repeat", action="store_true",
                            help="when it ends, the next of the same length follows")
        parser.add_argument("--name", default="")
        parser.add_argument("--finals", type=int, default=0, metavar="N",
                            help="the top N of its table play finals at its end (0: none)")
        parser.add_argument("--finals-format", default="", choices=[
            value for value, _ in FINALS_FORMATS], help="the finals' tournament format")
        parser.add_argument("--freeze", action="store_true",
                            help="uploads of the finals' bots wait until the finals end")
        parser.add_argument("--release", default=FinalsRelease.AT_ONCE,
                            choices=FinalsRelease.values,
                            help="the finals' results show at once, or when staff release "
                                 "them")

    def handle(self, *args: Any, **options: Any) -> None:
        ladder = Ladder.objects.filter(slug=options["ladder"]).first()
        if ladder is None:
            raise CommandError(f"no ladder {options['ladder']!r}; ladders: " + ", ".join(
                Ladder.objects.order_by("slug").values_list("slug", flat=True)))
        if not options["list"]:
            try:
                season = season_create(
                    ladder=ladder, starts_at=options["starts"], ends_at=options["ends"],
                    length=options["length"], name=options["name"], carry=options["carry"],
                    repeat=options["repeat"], finals_size=options["finals"],
                    finals_format=options["finals_format"],
                    freeze_for_finals=options["freeze"], finals_release=options["release"])
            except SeasonError as error:
                raise CommandError(str(error)) from None
            self.stdout.write(f"made {season.title} of {ladder.title} (id {season.pk})")
        for s in ladder_seasons(ladder):
            self.stdout.write(f"{s.number:>4} {s.title:<24} {s.state:<9} "
                              f"{s.starts_at:%Y-%m-%d %H:%M} → {s.ends_at:%Y-%m-%d %H:%M} UTC"
                              f"  carry {s.carry:g}"
                              + (f", repeats every {s.repeat_every}" if s.repeat_every else "")
                              + (f", finals: top {s.finals_size} "
                                 f"{s.finals_format.replace('_', ' ')}" if s.finals_size else ""))
