"""Public pages: home, ladder, match, a user's page. Each validates its input, reads through
selectors and renders; bot and version pages are in ``bot_views``."""

from __future__ import annotations

from dataclasses import asdict

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

import games
from league.ladders.models import Ladder
from league.ladders.selectors import ladder_board, queue_counts
from league.web import selectors

BOARD_PAGE = 50


def home(request: HttpRequest) -> HttpResponse:
    ladders = [(ladder, ladder_board(ladder, limit=10))
               for ladder in Ladder.objects.filter(active=True).order_by("pk")]
    matches = list(selectors.matches_with_players()
                   .filter(status__in=["finished", "failed"]).order_by("-finished_at")[:20])
    return render(request, "web/home.html", {
        "ladders": ladders, "matches": matches, "queue": queue_counts(),
        "slots": settings.LEAGUE_WORKER_SLOTS})


def ladder(request: HttpRequest, slug: str) -> HttpResponse:
    the_ladder = get_object_or_404(Ladder, slug=slug)
    query = request.GET.get("q", "").strip()[:40]
    rows = ladder_board(the_ladder)
    if query:
        rows = [r for r in rows if query.lower() in r.bot.lower()
                or query.lower() in r.owner.lower()]
    page = Paginator(rows, BOARD_PAGE).get_page(request.GET.get("page"))
    trend_from = selectors.rating_trend(
        ladder=the_ladder, version_ids=[row.version_id for row in page.object_list])
    board = [(row, row.rating - trend_from[row.version_id]
              if row.rating is not None and row.version_id in trend_from else None)
             for row in page.object_list]
    matches = list(selectors.matches_with_players().filter(ladder=the_ladder)
                   .filter(status__in=["finished", "failed"]).order_by("-finished_at")[:10])
    return render(request, "web/ladder.html", {
        "ladder": the_ladder, "game": games.make_game(the_ladder.game).describe(),
        "limits": asdict(the_ladder.sandbox_limits), "board": board, "page": page,
        "q": query, "matches": matches})


def match(request: HttpRequest, match_id: int) -> HttpResponse:
    the_match = selectors.match_get(match_id=match_id)
    players = [(p, p.version is not None and selectors.can_see_private(request.user,
                                                                       p.version.bot))
               for p in the_match.participants.all()]
    return render(request, "web/match.html", {
        "match": the_match, "players": players,
        "position": selectors.final_position(the_match)})


def user_page(request: HttpRequest, username: str) -> HttpResponse:
    owner, bots = selectors.user_public_bots(username=username, viewer=request.user)
    return render(request, "web/user.html", {"owner": owner, "bots": bots})

