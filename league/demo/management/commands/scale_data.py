"""``./manage.py scale_data``: a league at scale (10,000 bots, 1,000,000 matches by default)
in PostgreSQL, to measure the pages on (``benchmarks/league_pages.py``)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from league.demo.scale import MARK, ScaleError, scale_generate
from league.demo.scale_world import PlanError


class Bars:
    """One bar per stage; the previous stage's bar is marked done when the next starts."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.task: TaskID | None = None

    def stage(self, label: str, total: int | None = None) -> None:
        self.finish()
        self.task = self.progress.add_task(label, total=total)

    def advance(self, n: int) -> None:
        if self.task is not None:
            self.progress.advance(self.task, n)

    def finish(self) -> None:
        if self.task is not None:
            task = self.progress.tasks[-1]
            self.progress.update(self.task, total=task.total or 1,
                                 completed=task.total or 1)


class Command(BaseCommand):
    help = ("Generate users, bots (with versions), finished matches with their participants, "
            "ratings and replays, and standings, straight into PostgreSQL with COPY, in one "
            f"transaction. Generated users have e-mails @{MARK[1:]}: running again refuses "
            "unless --reset, which deletes that data set (nothing else) first.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bots", type=int, default=10_000)
        parser.add_argument("--matches", type=int, default=1_000_000,
                            help="finished matches in all, one validation match per version "
                                 "included")
        parser.add_argument("--days", type=float, default=60.0,
                            help="how far back the matches go")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--reset", action="store_true",
                            help="delete a data set generated earlier, then generate")

    def handle(self, *args: Any, **options: Any) -> None:
        quiet = options["verbosity"] == 0
        console = Console(stderr=True, quiet=quiet)
        columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                   MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn()]
        start = time.monotonic()
        with Progress(*columns, console=console, disable=quiet) as progress:
            bars = Bars(progress)
            try:
                summary = scale_generate(bots=options["bots"], matches=options["matches"],
                                         days=options["days"], seed=options["seed"],
                                         reset=options["reset"], progress=bars)
            except (ScaleError, PlanError) as error:
                raise CommandError(str(error)) from None
            bars.finish()
        if quiet:
            return
        took = time.monotonic() - start
        if summary.deleted_bots:
            self.stdout.write(f"deleted the previous data set ({summary.deleted_bots} bots)")
        self.stdout.write(
            f"generated {summary.users:,} users, {summary.bots:,} bots, "
            f"{summary.versions:,} versions, {summary.matches:,} finished matches with "
            f"{summary.participants:,} participants and as many replays as matches, "
            f"{summary.standings:,} standings in {took:.0f} s")
        self.stdout.write("  " + ", ".join(f"{stage} {seconds:.1f} s"
                                           for stage, seconds in summary.seconds.items()))
