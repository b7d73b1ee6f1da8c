"""Reads for the API, each in a fixed number of queries, and who may see what.

Private bots are seen only by their owner and staff; so are versions' logs and sources and
the logs bots wrote in matches. A version's archive is never loaded by a list."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q, QuerySet
from django.http import Http404

import games
from league.bots.models import Bot, BotVersion
from league.bots.selectors import AnyUser as User
from league.bots.selectors import owner_or_staff
from league.competitions.models import Challenge, Tournament
from league.competitions.selectors import challenges, tournaments
from league.ladders.models import (
    Ladder,
    Match,
    Participant,
    Replay,
)
from league.ladders.selectors import matches_with_players, standing_history


def game_list() -> list[dict[str, Any]]:
    ladders = {ladder.game: ladder.slug for ladder in Ladder.objects.filter(active=True)}
    return [{**games.make_game(g).describe(), "ladder": ladders.get(g)}
            for g in games.game_ids()]


def ladder_list() -> QuerySet[Ladder]:
    return Ladder.objects.order_by("pk")


def ladder_get(*, slug: str) -> Ladder:
    ladder = Ladder.objects.filter(slug=slug).first()
    if ladder is None:
        raise Http404(f"no ladder {slug!r}; the ladders are listed at /api/ladders/")
    return ladder


def _versions() -> QuerySet[BotVersion]:
    return BotVersion.objects.defer("archive", "log")


def bot_list(*, user: User, game: str | None = None, owner: str | None = None
             ) -> QuerySet[Bot]:
    bots = (Bot.objects.select_related("owner", "active_version")
            .defer("active_version__archive", "active_version__log")
            .order_by("game", "name"))
    if game:
        bots = bots.filter(game=game)
    if owner:
        bots = bots.filter(owner__username=owner)
    return bots


def version_list(*, bot: Bot) -> QuerySet[BotVersion]:
    return _versions().filter(bot=bot).select_related("bot__owner").order_by("-number")


def match_list(*, ladder: Ladder | None = None, bot: Bot | None = None,
               status: str | None = None, kind: str | None = None) -> QuerySet[Match]:
    matches = matches_with_players().order_by("-pk")
    if ladder is not None:
        matches = matches.filter(ladder=ladder)
    if bot is not None:
        matches = matches.filter(participants__version__bot=bot).distinct()
    if status:
        matches = matches.filter(status=status)
    if kind:
        matches = matches.filter(kind=kind)
    return matches


def replay_record(*, user: User, match: Match) -> dict[str, Any]:
    """The match record, with the logs of bots ``user`` may not see emptied."""
    replay = Replay.objects.filter(match=match).first()
    if replay is None:
        raise Http404(f"match {match.pk} has no replay yet (it is {match.status})")
    record = replay.record()
    by_seat = {p.seat: p for p in match.participants.all()}
    for player in record.get("players", []):
        p = by_seat.get(player.get("seat"))
        if p is None or p.version is None or not owner_or_staff(user, p.version.bot):
            player["log"] = ""
    return record


def rating_history(*, bot: Bot) -> QuerySet[Participant]:
    """The points of ``ladders.selectors.standing_history``, with rating before/after."""
    return (standing_history(bot=bot)
            .select_related("match", "version").defer("version__archive", "version__log",
                                                      "log")
            .annotate(rating=F("mu_after") - 3 * F("sigma_after")))


# -- competitions ----------------------------------------------------------------------------

def tournament_list(*, state: str | None = None, game: str | None = None
                    ) -> QuerySet[Tournament]:
    """Every tournament, newest first."""
    found = tournaments().order_by("-created_at", "-pk")
    if state:
        found = found.filter(state=state)
    if game:
        found = found.filter(game=game)
    return found


def challenge_list(*, bot: Bot | None = None) -> QuerySet[Challenge]:
    """Challenges, newest first; with ``bot``, those it made or received. A challenge is as
    public as its matches are (a private bot's matches stay public, as on the site)."""
    found = challenges().order_by("-created_at", "-pk")
    if bot is not None:
        found = found.filter(Q(bot=bot) | Q(opponent=bot))
    return found


