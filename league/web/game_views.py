"""The pages a newcomer starts from: the ladders, the games, each game's page (rules,
protocol in brief, a picture, the ladder's limits and leaders, starters to download) and the
protocol."""

from __future__ import annotations

from dataclasses import asdict

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

import games
from league.ladders.models import Ladder
from league.ladders.selectors import ladder_board
from league.web.game_pages import (
    NoSuchPage,
    document_html,
    picture,
    pitch,
    rules_html,
    starter,
    starter_zip,
    starters,
)

LEADERS = 10


def _ladders() -> dict[str, Ladder]:
    return {ladder.game: ladder for ladder in Ladder.objects.filter(active=True)}


def ladder_cards(limit: int = LEADERS) -> list[tuple[Ladder, list]]:
    """Each active ladder with its leaders, as the home page and the ladders' page show
    them."""
    return [(ladder, ladder_board(ladder, limit=limit))
            for ladder in Ladder.objects.filter(active=True).order_by("pk")]


def ladders(request: HttpRequest) -> HttpResponse:
    return render(request, "web/ladders.html", {"ladders": ladder_cards()})


def game_list(request: HttpRequest) -> HttpResponse:
    by_game = _ladders()
    rows = [{"game": games.make_game(game_id).describe(), "ladder": by_game.get(game_id),
             "starters": starters(game_id), "pitch": pitch(game_id)}
            for game_id in games.game_ids()]
    return render(request, "web/games.html", {"rows": rows})


def game(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        rules = rules_html(game_id)
    except NoSuchPage:
        raise Http404(f"There is no game {game_id!r}.") from None
    the_ladder = _ladders().get(game_id)
    options = the_ladder.options if the_ladder else {}
    return render(request, "web/game.html", {
        "game": games.make_game(game_id, options).describe(), "ladder": the_ladder,
        "limits": asdict(the_ladder.sandbox_limits) if the_ladder else None,
        "leaders": ladder_board(the_ladder, limit=LEADERS) if the_ladder else [],
        "starters": starters(game_id), "rules": rules,
        "picture": picture(game_id, options)})


def starter_download(request: HttpRequest, game_id: str, filename: str) -> HttpResponse:
    try:
        one = starter(game_id, filename)
    except NoSuchPage:
        raise Http404(f"There is no starter {filename!r} for {game_id!r}.") from None
    response = HttpResponse(starter_zip(one), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{one.filename}"'
    return response


def protocol(request: HttpRequest) -> HttpResponse:
    title, body = document_html("protocol")
    return render(request, "web/document.html", {"title": title, "body": body})
