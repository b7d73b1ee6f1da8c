"""Reads for the API, each in a fixed number of queries, and who may see what.

Private bots are seen only by their owner and staff; so are versions' logs and sources and
the logs bots wrote in matches. A version's archive is never loaded by a list."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import F, Prefetch, Q, QuerySet
from django.http import Http404

import games
from league.bots.models import Bot, BotVersion
from league.ladders.models import (
    Ladder,
    LadderKind,
    Match,
    MatchKind,
    MatchStatus,
    Participant,
    Replay,
)

User = AbstractBaseUser | AnonymousUser


def can_see_private(user: User, bot: Bot) -> bool:
    """Whether ``user`` may see ``bot``'s source, logs and (when it is private) the bot."""
    return bool(user.is_authenticated and (user.is_staff or bot.owner_id == user.pk))


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
    if not (user.is_authenticated and user.is_staff):
        visible = Q(public=True) | Q(owner_id=user.pk) if user.is_authenticated \
            else Q(public=True)
        bots = bots.filter(visible)
    if game:
        bots = bots.filter(game=game)
    if owner:
        bots = bots.filter(owner__username=owner)
    return bots


def bot_get(*, user: User, bot_id: int) -> Bot:
    """The bot, or 404 when there is none or it is private and not ``user``'s."""
    bot = bot_list(user=user).filter(pk=bot_id).first()
    if bot is None:
        raise Http404(f"no bot {bot_id} (or it is private); bots are listed at /api/bots/")
    return bot


def version_list(*, bot: Bot) -> QuerySet[BotVersion]:
    return _versions().filter(bot=bot).select_related("bot__owner").order_by("-number")


def version_get(*, user: User, version_id: int, with_archive: bool = False) -> BotVersion:
    versions = BotVersion.objects if with_archive else BotVersion.objects.defer("archive")
    version = versions.select_related("bot__owner").filter(pk=version_id).first()
    if version is None or not (version.bot.public or can_see_private(user, version.bot)):
        raise Http404(f"no version {version_id} (or its bot is private)")
    return version


def _participants() -> QuerySet[Participant]:
    return Participant.objects.select_related("version__bot__owner").defer(
        "version__archive", "version__log").order_by("seat")


def match_list(*, ladder: Ladder | None = None, bot: Bot | None = None,
               status: str | None = None, kind: str | None = None) -> QuerySet[Match]:
    matches = (Match.objects.select_related("ladder")
               .prefetch_related(Prefetch("participants", queryset=_participants()))
               .order_by("-pk"))
    if ladder is not None:
        matches = matches.filter(ladder=ladder)
    if bot is not None:
        matches = matches.filter(participants__version__bot=bot).distinct()
    if status:
        matches = matches.filter(status=status)
    if kind:
        matches = matches.filter(kind=kind)
    return matches


def match_get(*, match_id: int) -> Match:
    match = match_list().filter(pk=match_id).first()
    if match is None:
        raise Http404(f"no match {match_id}; matches are listed at /api/matches/")
    return match


def replay_record(*, user: User, match: Match) -> dict[str, Any]:
    """The match record, with the logs of bots ``user`` may not see emptied."""
    replay = Replay.objects.filter(match=match).first()
    if replay is None:
        raise Http404(f"match {match.pk} has no replay yet (it is {match.status})")
    record = replay.record()
    by_seat = {p.seat: p for p in match.participants.all()}
    for player in record.get("players", []):
        p = by_seat.get(player.get("seat"))
        if p is None or p.version is None or not can_see_private(user, p.version.bot):
            player["log"] = ""
    return record


def rating_history(*, bot: Bot) -> QuerySet[Participant]:
    """The bot's finished rated or scored matches, oldest first, with rating before/after."""
    return (Participant.objects.filter(version__bot=bot, match__status=MatchStatus.FINISHED)
            .filter(Q(mu_after__isnull=False)
                    | Q(match__ladder__kind=LadderKind.SCORED, score__isnull=False))
            .exclude(match__kind=MatchKind.CHALLENGE)
            .select_related("match", "version").defer("version__archive", "version__log",
                                                      "log")
            .annotate(rating=F("mu_after") - 3 * F("sigma_after"))
            .order_by("match__finished_at", "match_id"))
