"""Lists of matches on pages (home, ladder, bot, version): light rows read with ``values()``,
two queries a list, and no model objects (a list of twenty matches would otherwise build a
hundred of them: matches, ladders, participants, versions, bots)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from league.ladders.models import LadderKind, Match, Participant


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    version_id: int | None
    number: int | None
    bot: str
    builtin: str
    forfeit: str
    outcome: str
    score: float | None
    person: str = ""
    """A person in the seat (exhibitions): their name."""


@dataclass(frozen=True)
class MatchRow:
    pk: int
    status: str
    kind: str
    game: str
    """The ladder's title, as the list shows it."""
    rated: bool
    reason: str
    detail: str
    moves: int
    finished_at: datetime | None
    players: tuple[PlayerRow, ...]


def match_rows(matches: QuerySet[Match], limit: int) -> list[MatchRow]:
    """The first ``limit`` of ``matches`` (filtered and ordered) with their players."""
    rows = list(matches.values("pk", "status", "kind", "reason", "detail", "moves",
                               "finished_at", "ladder__title", "ladder__kind")[:limit])
    players: dict[int, list[PlayerRow]] = {row["pk"]: [] for row in rows}
    for match_id, *player in (Participant.objects.filter(match_id__in=list(players))
                              .order_by("match_id", "seat")
                              .values_list("match_id", "seat", "version_id", "version__number",
                                           "version__bot__name", "builtin", "forfeit",
                                           "outcome", "score", "player__username")):
        players[match_id].append(PlayerRow(*player[:3], player[3] or "", *player[4:8],
                                           person=player[8] or ""))
    return [MatchRow(pk=r["pk"], status=r["status"], kind=r["kind"], game=r["ladder__title"],
                     rated=r["ladder__kind"] == LadderKind.RATED, reason=r["reason"],
                     detail=r["detail"], moves=r["moves"], finished_at=r["finished_at"],
                     players=tuple(players[r["pk"]])) for r in rows]
