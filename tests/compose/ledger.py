"""The books of a deployment, read in its web container: what every match came to, so a test
can tell that a fault lost nothing and counted nothing twice (ratings included)."""

from __future__ import annotations

from typing import Any

from benchmarks.deployment import League, wait

LEDGER = """
from collections import defaultdict
from league.ladders.models import Match, Participant, Replay, Standing
statuses = defaultdict(int)
for s in Match.objects.values_list("status", flat=True):
    statuses[s] += 1
replays = defaultdict(int)
for m in Replay.objects.values_list("match_id", flat=True):
    replays[m] += 1
finished = set(Match.objects.filter(status="finished").values_list("pk", flat=True))
problems = []
problems += [f"match {m}: finished without a replay" for m in finished if replays[m] != 1]
problems += [f"match {m}: {n} replays" for m, n in replays.items() if n > 1]
chains = defaultdict(list)
for p in (Participant.objects.filter(match__kind="ladder", match__status="finished")
          .order_by("match__finished_at", "match_id")):
    chains[p.version_id].append(p)
for s in Standing.objects.all():
    rows = chains.get(s.version_id, [])
    if s.games != len(rows):
        problems.append(f"version {s.version_id}: {s.games} games on the board, "
                        f"{len(rows)} finished ladder matches")
    for before, after in zip(rows, rows[1:]):
        if abs(after.mu_before - before.mu_after) > 1e-9:
            problems.append(f"version {s.version_id}: match {after.match_id} rated from "
                            f"mu {after.mu_before}, the match before left {before.mu_after}")
    if rows and abs(rows[-1].mu_after - s.mu) > 1e-9:
        problems.append(f"version {s.version_id}: board mu {s.mu} != last match's")
failed = list(Match.objects.filter(status="failed").values("pk", "reason", "detail"))
result = {"statuses": dict(statuses), "problems": problems, "failed": failed,
          "open": list(Match.objects.filter(status__in=["queued", "running"])
                       .values_list("pk", flat=True)),
          "attempts": dict(Match.objects.filter(attempts__gt=1).values_list("pk", "attempts"))}
"""


def ledger(dep: League) -> dict[str, Any]:
    return dep.shell(LEDGER)


def matches(dep: League, ids: list[int]) -> dict[int, dict[str, Any]]:
    rows = dep.shell(f"""
from league.ladders.models import Match
result = list(Match.objects.filter(pk__in={ids!r}).values("pk", "status", "attempts",
                                                          "reason", "detail"))
""")
    return {row["pk"]: row for row in rows}


def in_flight(dep: League, at_least: int = 1, timeout: float = 90) -> list[int]:
    """Ids of running matches, once at least ``at_least`` are running."""
    found: list[int] = []

    def running() -> bool:
        found[:] = dep.shell("from league.ladders.models import Match\n"
                             "result = list(Match.objects.filter(status='running')"
                             ".values_list('pk', flat=True))")
        return len(found) >= at_least

    wait(running, timeout, f"{at_least} running matches", dep.logs, every=0.5)
    return list(found)


def set_matchmaking(dep: League, on: bool) -> None:
    dep.shell(f"from league.ladders.models import Ladder\n"
              f"Ladder.objects.update(active={on})")


def settle(dep: League, timeout: float = 180, resume: bool = True) -> dict[str, Any]:
    """Stop making matches, wait until every open one has ended, read the books, and make
    matches again (unless not to ``resume``). Beat stays up: its reaper is what brings lost
    matches back."""
    set_matchmaking(dep, False)
    try:
        wait(lambda: not ledger(dep)["open"], timeout, "every open match to end",
             lambda: dep.logs(dep.worker, "beat", tail=80), every=2)
        return ledger(dep)
    finally:
        if resume:
            set_matchmaking(dep, True)
