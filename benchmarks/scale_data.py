"""``python -m benchmarks.scale_data``: a league at scale (10,000 bots, 1,000,000 matches by
default) in the league's database (``DATABASE_URL``: PostgreSQL), to measure the pages and
matchmaking on (``benchmarks/league_pages.py``).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/botleague_scale \
        .venv/bin/python -m benchmarks.scale_data --bots 10000 --matches 1000000
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass

import django
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

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
django.setup()  # a command line of its own; a no-op where Django is set up already

from benchmarks.scale.generate import MARK, ScaleError, Summary, scale_generate  # noqa: E402
from benchmarks.scale.world import PlanError  # noqa: E402


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


@dataclass(frozen=True)
class Options:
    bots: int = 10_000
    matches: int = 1_000_000
    """Finished matches in all, one validation match per version included."""
    days: float = 60.0
    """How far back the matches go."""
    seed: int = 1
    reset: bool = False
    """Delete a data set generated earlier, then generate."""
    quiet: bool = False


def generate(options: Options) -> Summary:
    """Generate the data set with a progress bar per stage (none when quiet); raises
    ``ScaleError`` or ``PlanError`` with what to change."""
    console = Console(stderr=True, quiet=options.quiet)
    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=console, disable=options.quiet) as progress:
        bars = Bars(progress)
        summary = scale_generate(bots=options.bots, matches=options.matches,
                                 days=options.days, seed=options.seed, reset=options.reset,
                                 progress=bars)
        bars.finish()
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.scale_data", description=(
            "Generate users, bots (with versions), finished matches with their participants, "
            "ratings and replays, and standings, straight into the database with COPY, in one "
            f"transaction. Generated users have e-mails @{MARK[1:]}: running again refuses "
            "unless --reset, which deletes that data set (nothing else) first."))
    parser.add_argument("--bots", type=int, default=Options.bots)
    parser.add_argument("--matches", type=int, default=Options.matches,
                        help="finished matches in all, one validation match per version "
                             "included")
    parser.add_argument("--days", type=float, default=Options.days,
                        help="how far back the matches go")
    parser.add_argument("--seed", type=int, default=Options.seed)
    parser.add_argument("--reset", action="store_true",
                        help="delete a data set generated earlier, then generate")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        summary = generate(Options(bots=args.bots, matches=args.matches, days=args.days,
                                   seed=args.seed, reset=args.reset, quiet=args.quiet))
    except (ScaleError, PlanError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not args.quiet:
        took = time.monotonic() - start
        if summary.deleted_bots:
            print(f"deleted the previous data set ({summary.deleted_bots} bots)")
        print(f"generated {summary.users:,} users, {summary.bots:,} bots, "
              f"{summary.versions:,} versions, {summary.matches:,} finished matches with "
              f"{summary.participants:,} participants and as many replays as matches, "
              f"{summary.standings:,} standings in {took:.0f} s")
        print("  " + ", ".join(f"{stage} {seconds:.1f} s"
                               for stage, seconds in summary.seconds.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
