"""Seasons' pages: a ladder's archive of seasons and one season's final table (with a podium).
The ladder's page names the running season (``views._ladder_page``) and the bot's page its
past places (``bot_views``)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.competitions.finals import season_finals
from league.ladders.models import Ladder, SeasonState
from league.ladders.season_reads import ladder_seasons, season_get, season_table

ARCHIVE_PAGE = 50
PODIUM_ORDER = (2, 1, 3)
"""Places as a podium stands them, left to right: second, first, third."""


def season_archive(request: HttpRequest, slug: str) -> HttpResponse:
    ladder = get_object_or_404(Ladder, slug=slug)
    # a repeating season of 15 minutes makes a hundred a day: paged
    page = Paginator(ladder_seasons(ladder), ARCHIVE_PAGE).get_page(request.GET.get("page"))
    return render(request, "web/seasons.html", {
        "ladder": ladder, "seasons": page.object_list, "page": page})


def season(request: HttpRequest, season_id: int) -> HttpResponse:
    the_season = season_get(season_id=season_id)
    table = season_table(the_season) if the_season.state == SeasonState.ENDED else []
    by_place = {row.place: row for row in table[:3]}
    podium = [(place, by_place[place]) for place in PODIUM_ORDER if place in by_place]
    return render(request, "web/season.html", {
        "season": the_season, "ladder": the_season.ladder, "table": table,
        "podium": podium,
        "finals": season_finals(the_season) if the_season.finals_size else None})
