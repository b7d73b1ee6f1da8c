"""Reads for the site's pages. Each runs a fixed number of queries, however much data there
is: lists are fetched with their relations in one go and aggregated in the database."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from league.bots.models import Bot, BotVersion
from league.ladders.models import (
    Ladder,
    Match,
    MatchKind,
    MatchStatus,
    Participant,
    Standing,
)

AnyUser = User | AnonymousUser
HISTORY_POINTS = 400
"""The chart shows at most this many matches (the latest), so the page stays light."""


def can_see_private(user: AnyUser, bot: Bot) -> bool:
    """Owner and staff see a bot's source, its logs and, when it is private, the bot."""
    return bool(user.is_authenticated and (user.is_staff or bot.owner_id == user.pk))


def _participants() -> QuerySet[Participant]:
    # Logs can be long and only the match page shows them.
    return (Participant.objects.select_related("version__bot")
            .defer("log", "version__archive", "version__log").order_by("seat"))


def matches_with_players() -> QuerySet[Match]:
    return (Match.objects.select_related("ladder")
            .prefetch_related(Prefetch("participants", queryset=_participants())))


def bot_get(*, user: AnyUser, bot_id: int) -> Bot:
    """The bot, or 404 when there is none or it is private and ``user`` may not see it."""
    bot = (Bot.objects.select_related("owner__profile", "active_version")
           .defer("active_version__archive", "active_version__log").filter(pk=bot_id).first())
    if bot is None or not (bot.public or can_see_private(user, bot)):
        raise Http404("No such bot (or it is private).")
    return bot


def version_get(*, user: AnyUser, version_id: int, with_archive: bool = False) -> BotVersion:
    versions = BotVersion.objects.select_related("bot__owner__profile")
    if not with_archive:
        versions = versions.defer("archive")
    version = versions.filter(pk=version_id).first()
    if version is None or not (version.bot.public or can_see_private(user, version.bot)):
        raise Http404("No such version (or its bot is private).")
    return version


# -- bot page ------------------------------------------------------------------------------

@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass
class BotPage:
    bot: Bot
    versions: list[BotVersion]
    standings: dict[int, Standing]
    history: dict[str, Any]
    matches: list[Match]
    head_to_head: list[dict[str, Any]]
    seats: list[dict[str, Any]]
    ladder: Ladder | None = None


def bot_page(*, bot: Bot, matches: int = 20) -> BotPage:
    versions = list(bot.versions.defer("archive", "log").order_by("-number"))
    standings = {s.version_id: s for s in Standing.objects.filter(version__bot=bot)}
    recent = list(matches_with_players().filter(participants__version__bot=bot)
                  .exclude(status__in=[MatchStatus.QUEUED, MatchStatus.CANCELLED])
                  .order_by("-pk").distinct()[:matches])
    return BotPage(bot=bot, versions=versions, standings=standings,
                   history=rating_history(bot=bot), matches=recent,
                   head_to_head=head_to_head(bot=bot), seats=results_by_seat(bot=bot),
                   ladder=Ladder.objects.filter(game=bot.game).first())


def rating_history(*, bot: Bot) -> dict[str, Any]:
    """Chart data: per version, the rating (mu - 3 sigma) after each of its rated matches,
    or its score in each scored match; x is the match's place in the bot's history."""
    rows = list(Participant.objects.filter(
        version__bot=bot, match__status=MatchStatus.FINISHED,
        match__kind__in=[MatchKind.LADDER, MatchKind.VALIDATION])
        .order_by("-match__finished_at")
        .values_list("version__number", "mu_after", "sigma_after", "score",
                     "match__finished_at")[:HISTORY_POINTS])
    rows.reverse()
    series: dict[int, list[dict[str, Any]]] = {}
    rated = False
    for x, (number, mu, sigma, score, finished) in enumerate(rows, start=1):
        if mu is not None and sigma is not None:
            rated, y = True, round(mu - 3 * sigma, 2)
        elif score is not None:
            y = score
        else:
            continue
        series.setdefault(number, []).append(
            {"x": x, "y": y, "t": finished.strftime("%Y-%m-%d %H:%M") if finished else ""})
    return {"label": "rating (μ − 3σ)" if rated else "score",
            "series": [{"label": f"v{n}", "points": p} for n, p in sorted(series.items())]}


def _tally(counts: dict[str, int]) -> dict[str, int]:
    return {"games": counts["games"], "wins": counts["wins"], "losses": counts["losses"],
            "draws": counts["draws"]}


def head_to_head(*, bot: Bot) -> list[dict[str, Any]]:
    """Opponent bots with games and this bot's W/L/D against them (from their seats: their
    loss is our win), in one aggregate query."""
    finished = Q(match__status=MatchStatus.FINISHED, match__kind=MatchKind.LADDER)
    rows = (Participant.objects.filter(finished, match__participants__version__bot=bot)
            .exclude(version__bot=bot).exclude(version=None)
            .values("version__bot_id", "version__bot__name", "version__bot__public")
            .annotate(games=Count("id"), wins=Count("id", filter=Q(outcome="loss")),
                      losses=Count("id", filter=Q(outcome="win")),
                      draws=Count("id", filter=Q(outcome="draw")))
            .order_by("-games", "version__bot__name"))
    return [{"bot_id": r["version__bot_id"], "name": r["version__bot__name"],
             "public": r["version__bot__public"], **_tally(r)} for r in rows]


def results_by_seat(*, bot: Bot) -> list[dict[str, Any]]:
    from django.db.models import Avg

    rows = (Participant.objects.filter(version__bot=bot, match__status=MatchStatus.FINISHED,
                                       match__kind=MatchKind.LADDER)
            .values("seat")
            .annotate(games=Count("id"), wins=Count("id", filter=Q(outcome="win")),
                      losses=Count("id", filter=Q(outcome="loss")),
                      draws=Count("id", filter=Q(outcome="draw")), mean=Avg("score"),
                      forfeits=Count("id", filter=~Q(forfeit="")))
            .order_by("seat"))
    return [{"seat": r["seat"], "mean": r["mean"], "forfeits": r["forfeits"], **_tally(r)}
            for r in rows]


# -- version page --------------------------------------------------------------------------

@dataclass
class VersionPage:
    version: BotVersion
    validations: list[Match]
    previous: BotVersion | None
    standing: Standing | None
    previous_standing: Standing | None
    against_previous: Tally = field(default_factory=Tally)


def version_page(*, version: BotVersion) -> VersionPage:
    validations = list(matches_with_players().filter(kind=MatchKind.VALIDATION,
                                                     participants__version=version)
                       .order_by("-pk")[:5])
    previous = (BotVersion.objects.defer("archive", "log")
                .filter(bot_id=version.bot_id, number__lt=version.number)
                .order_by("-number").first())
    standings = {s.version_id: s for s in Standing.objects.select_related("ladder").filter(
        version_id__in=[version.pk] + ([previous.pk] if previous else []))}
    page = VersionPage(version=version, validations=validations, previous=previous,
                       standing=standings.get(version.pk),
                       previous_standing=standings.get(previous.pk) if previous else None)
    if previous is not None:
        counts = (Participant.objects.filter(
            version=version, match__status=MatchStatus.FINISHED,
            match__participants__version=previous)
            .aggregate(games=Count("id"), wins=Count("id", filter=Q(outcome="win")),
                       losses=Count("id", filter=Q(outcome="loss")),
                       draws=Count("id", filter=Q(outcome="draw"))))
        page.against_previous = Tally(**_tally(counts))
    return page


# -- ladder page ---------------------------------------------------------------------------

def rating_trend(*, ladder: Ladder, version_ids: list[int], days: int = 7
                 ) -> dict[int, float]:
    """Per version: how far its board value moved over the last ``days`` (rating on a rated
    ladder, mean score would be noise on a scored one, so only rated ladders get a trend).
    The first participation in the window holds the value it started from."""
    if not ladder.rated:
        return {}
    since = timezone.now() - timedelta(days=days)
    first: dict[int, float] = {}
    rows = (Participant.objects.filter(match__ladder=ladder, match__status=MatchStatus.FINISHED,
                                       match__finished_at__gte=since, mu_before__isnull=False,
                                       version_id__in=version_ids)
            .order_by("match__finished_at")
            .values_list("version_id", "mu_before", "sigma_before"))
    for version_id, mu, sigma in rows:
        first.setdefault(version_id, mu - 3 * sigma)
    return first


def user_public_bots(*, username: str, viewer: AnyUser) -> tuple[User, list[Bot]]:
    owner = User.objects.select_related("profile").filter(username=username).first()
    if owner is None or not owner.is_active:
        raise Http404("No such user.")
    bots = (Bot.objects.filter(owner=owner).select_related("active_version")
            .defer("active_version__archive", "active_version__log").order_by("game", "name"))
    if not can_see_private(viewer, Bot(owner=owner)):
        bots = bots.filter(public=True)
    return owner, list(bots)


def my_bots(*, user: User) -> list[Bot]:
    versions = BotVersion.objects.defer("archive", "log").order_by("-number")
    return list(Bot.objects.filter(owner=user).order_by("game", "name")
                .prefetch_related(Prefetch("versions", queryset=versions)))


def match_get(*, match_id: int) -> Match:
    match = (Match.objects.select_related("ladder")
             .prefetch_related(Prefetch("participants", queryset=Participant.objects
                                        .select_related("version__bot__owner")
                                        .defer("version__archive", "version__log")
                                        .order_by("seat")))
             .filter(pk=match_id).first())
    if match is None:
        raise Http404("No such match.")
    return match
