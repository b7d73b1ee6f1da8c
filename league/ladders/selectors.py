"""Reads for pages: boards and recent matches, each in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass

from league.bots.models import VersionStatus
from league.ladders.models import Ladder, LadderKind, Match, MatchStatus, Standing
from league.ladders.ratings import mean_interval


@dataclass(frozen=True)
class BoardRow:
    rank: int
    bot: str
    owner: str
    version: int
    games: int
    rating: float | None
    """mu - 3 sigma on a rated ladder."""
    mu: float | None
    sigma: float | None
    wins: int
    losses: int
    draws: int
    mean: float | None
    """Mean score on a scored ladder, with the 95 % interval's half-width."""
    ci: float | None
    seeds: int
    bot_id: int = 0
    version_id: int = 0
    public: bool = True


def ladder_board(ladder: Ladder, limit: int | None = None) -> list[BoardRow]:
    standings = list(Standing.objects.filter(
        ladder=ladder, version__status=VersionStatus.ACTIVE, version__bot__retired=False,
        version__bot__disabled=False).select_related("version__bot__owner")
        .defer("version__archive", "version__log"))  # archives are megabytes; unused here
    if ladder.kind == LadderKind.RATED:
        standings.sort(key=lambda s: s.ordinal, reverse=True)
    else:
        standings.sort(key=lambda s: (s.score_sum / s.games if s.games else float("-inf")),
                       reverse=True)
    rows = []
    for rank, s in enumerate(standings[:limit] if limit else standings, start=1):
        mean, ci = mean_interval(s.games, s.score_sum, s.score_sq_sum)
        scored = ladder.kind == LadderKind.SCORED
        rows.append(BoardRow(
            rank=rank, bot=s.version.bot.name, owner=s.version.bot.owner.username,
            version=s.version.number, games=s.games,
            rating=None if scored else s.ordinal, mu=None if scored else s.mu,
            sigma=None if scored else s.sigma, wins=s.wins, losses=s.losses, draws=s.draws,
            mean=mean if scored and s.games else None,
            ci=ci if scored and s.games > 1 else None, seeds=s.games if scored else 0,
            bot_id=s.version.bot_id, version_id=s.version_id, public=s.version.bot.public))
    return rows


def recent_matches(limit: int = 20) -> list[Match]:
    return list(Match.objects.filter(status__in=[MatchStatus.FINISHED, MatchStatus.FAILED])
                .select_related("ladder").prefetch_related("participants__version__bot")
                .order_by("-finished_at")[:limit])


def queue_counts() -> dict[str, int]:
    from django.db.models import Count

    rows = Match.objects.filter(status__in=[MatchStatus.QUEUED, MatchStatus.RUNNING]).values(
        "status").annotate(n=Count("id"))
    counts = {"queued": 0, "running": 0}
    counts.update({r["status"]: r["n"] for r in rows})
    return counts
