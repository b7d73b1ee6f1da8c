"""The standings recounted from the matches: the counters the finishing transaction keeps
(games, wins, losses, draws, score sums, the rating, the decaying count of recent matches)
checked against what the finished matches say, and set right where they differ
(``manage.py standings_recount [--fix]``)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from league.ladders.lifecycle import FINISHED
from league.ladders.models import Ladder, MatchKind, Participant, Standing
from league.ladders.ratings import Tally, count_outcome, count_score, decay, decayed

COUNTERS = ("games", "wins", "losses", "draws", "score_sum", "score_sq_sum", "mu", "sigma",
            "recent")
RECENT_HORIZON = 48 * 3600.0
"""A match older than this adds under 1/60,000 of one to the recent count: not read."""


@dataclass
class Count(Tally):
    score_sum: float = 0.0
    score_sq_sum: float = 0.0
    mu: float | None = None
    sigma: float | None = None
    recent: float = 0.0


@dataclass
class Difference:
    standing: Standing
    fields: dict[str, tuple[float, float]] = field(default_factory=dict)
    """field: (kept, recounted)"""


def _rows(ladder: Ladder) -> Iterator[tuple]:
    """The participations that count on the ladder, in the order they were applied."""
    counted = Participant.objects.filter(match__ladder=ladder, match__status=FINISHED,
                                         version__isnull=False)
    if ladder.rated:
        counted = counted.filter(match__kind=MatchKind.LADDER, mu_after__isnull=False)
    else:  # a solo ladder's validation run is on its first seed and counts, if it passed
        counted = counted.filter(match__kind__in=[MatchKind.LADDER, MatchKind.VALIDATION],
                                 score__isnull=False).exclude(
            match__kind=MatchKind.VALIDATION, forfeit__gt="")
    return counted.order_by("match__finished_at", "match_id").values_list(
        "version_id", "outcome", "score", "mu_after", "sigma_after",
        F("match__finished_at"), "match_id").iterator(chunk_size=10_000)


def recount(ladder: Ladder, now: datetime | None = None) -> dict[int, Count]:
    """The counters of each version from its matches of the season its standing counts for
    (made after its ``since_match``: ``league.ladders.seasons``); the recent count from all."""
    now = now or timezone.now()
    counts: dict[int, Count] = {}
    since = dict(Standing.objects.filter(ladder=ladder).values_list("version_id",
                                                                    "since_match"))
    for version_id, outcome, score, mu, sigma, finished, match_id in _rows(ladder):
        c = counts.setdefault(version_id, Count())
        if ladder.rated:
            age = (now - finished).total_seconds()
            if age < RECENT_HORIZON:
                c.recent += decay(1.0, age)
            if match_id <= since.get(version_id, 0):
                continue  # an earlier season's: its rating was reset since
            count_outcome(c, outcome)
            c.mu, c.sigma = mu, sigma
        elif match_id > since.get(version_id, 0):
            count_score(c, score)
    return counts


def standings_recount(*, fix: bool = False, tolerance: float = 1e-6) -> list[Difference]:
    """Every standing whose counters differ from the recount; set right with ``fix``."""
    differences = []
    now = timezone.now()
    for ladder in Ladder.objects.order_by("pk"):
        with transaction.atomic():
            standings = list(Standing.objects.select_for_update().filter(ladder=ladder))
            counts = recount(ladder, now)
            for s in standings:
                c = counts.get(s.version_id, Count(mu=s.mu, sigma=s.sigma))
                if c.mu is None:  # placed, never rated: its rating is where it was placed
                    c.mu, c.sigma = s.mu, s.sigma
                kept = {"games": s.games, "wins": s.wins, "losses": s.losses,
                        "draws": s.draws, "score_sum": s.score_sum,
                        "score_sq_sum": s.score_sq_sum, "mu": s.mu, "sigma": s.sigma,
                        "recent": decayed(s.recent, s.recent_at, now)}
                wrong = {name: (kept[name], getattr(c, name)) for name in COUNTERS
                         if not math.isclose(kept[name], getattr(c, name),
                                             rel_tol=tolerance, abs_tol=1e-3
                                             if name == "recent" else tolerance)}
                if not wrong:
                    continue
                differences.append(Difference(s, wrong))
                if fix:
                    for name in COUNTERS:
                        setattr(s, name, getattr(c, name))
                    s.recent_at = now
                    s.save()
    return differences
