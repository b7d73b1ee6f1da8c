"""Reads of seasons for pages and the API: a ladder's seasons (with each one's podium), the
one running and the next, a season's table, a bot's past places. Each a fixed number of
queries however many seasons there are."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.http import Http404

from league.bots.models import Bot
from league.ladders.models import Ladder, Season, SeasonPlace, SeasonState

PODIUM = 3


def places_with_bots() -> QuerySet[SeasonPlace]:
    return (SeasonPlace.objects.select_related("bot__owner", "version")
            .only("season_id", "place", "games", "wins", "losses", "draws", "mu", "sigma",
                  "rating", "mean", "ci", "provisional", "bot__id", "bot__name",
                  "bot__owner__username", "version__id", "version__number")
            .order_by("place"))


def ladder_seasons(ladder: Ladder) -> QuerySet[Season]:
    """The ladder's seasons, newest first, each with ``podium`` (its first three places, an
    ended season's) and ``entrants`` (how many places its table has)."""
    entrants = (SeasonPlace.objects.filter(season=OuterRef("pk")).order_by()
                .values("season").annotate(n=Count("pk")).values("n"))
    return (Season.objects.filter(ladder=ladder).select_related("ladder")
            .annotate(entrants=Subquery(entrants))
            .prefetch_related(Prefetch("places", to_attr="podium",
                                       queryset=places_with_bots().filter(place__lte=PODIUM)))
            .order_by("-number"))


@dataclass(frozen=True)
class SeasonNow:
    """What a ladder's page says of its seasons: the one running, the next one listed, the
    latest ended (its table linked)."""

    running: Season | None
    upcoming: Season | None
    latest_ended: Season | None
    count: int


def season_now(ladder: Ladder) -> SeasonNow:
    """One query: a ladder has a handful of seasons that are not over, and the latest ended
    one is the first of the rest by number."""
    rows = list(Season.objects.filter(ladder=ladder).order_by("-number")[:3])
    open_ = [s for s in rows if s.state != SeasonState.ENDED]
    return SeasonNow(
        running=next((s for s in open_ if s.state == SeasonState.RUNNING), None),
        upcoming=min((s for s in open_ if s.state == SeasonState.UPCOMING),
                     key=lambda s: s.starts_at, default=None),
        latest_ended=next((s for s in rows if s.state == SeasonState.ENDED), None),
        count=len(rows))


def season_get(*, season_id: int) -> Season:
    season = Season.objects.select_related("ladder").filter(pk=season_id).first()
    if season is None:
        raise Http404(f"no season {season_id}; a ladder's seasons are listed on its page")
    return season


def season_table(season: Season) -> list[SeasonPlace]:
    """The ended season's table, first place first (empty while it runs)."""
    return list(places_with_bots().filter(season=season))


def bot_seasons(bot: Bot) -> list[SeasonPlace]:
    """The bot's places in ended seasons, newest first, each with ``of`` (how many places
    that season's table has) and its season and ladder."""
    of = (SeasonPlace.objects.filter(season=OuterRef("season")).order_by()
          .values("season").annotate(n=Count("pk")).values("n"))
    return list(SeasonPlace.objects.filter(bot=bot).select_related("season__ladder", "version")
                .defer("version__archive", "version__log")
                .annotate(of=Subquery(of)).order_by("-season__ends_at", "-season_id"))
