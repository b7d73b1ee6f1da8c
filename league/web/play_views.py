"""Playing against a bot: the page of how to play and your games (``GET /play/``), the form's
target (``POST /play/``, back to the page it came from with the refusal as a message), the
play page, only for the person playing (anyone else goes to the match's page), and its
buttons: leaving the queue for a board, resigning, a rematch (``POST /play/<id>/leave/``,
``resign/``, ``rematch/``). The page's JSON is the API's (``league.api.play_views``)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

import games
from league.bots.models import Bot
from league.ids import parse_id
from league.ladders.models import Ladder
from league.ladders.play.services import (
    GamesGoing,
    PlayError,
    exhibition_create,
    exhibition_leave,
    exhibition_of,
    exhibition_rematch,
    exhibition_resign,
)
from league.rate_limits import RateLimited
from league.web.play_forms import PlayForm
from league.web.play_pages import play_index_forms, your_games
from league.web.refusals import sentence

YOUR_GAMES = "your-games"
"""The message tag of a refusal because of the games going: the page links them."""


def _refused(request: HttpRequest, error: PlayError) -> None:
    tags = YOUR_GAMES if isinstance(error, GamesGoing) else ""
    messages.error(request, sentence(str(error)), extra_tags=tags)


def _back(form: PlayForm) -> str:
    """The page the form was on: /play/, the bot's, else the game's ladder's, else home."""
    data = form.data
    if data.get("back") == "play":  # the form on /play/
        return reverse("play-start")
    opponent = parse_id(data.get("opponent", ""))
    if opponent is not None and Bot.objects.filter(pk=opponent).exists():
        return reverse("bot", args=[opponent])
    game = str(data.get("game", ""))
    # only a known game's id reaches the query (a NUL byte in one was a database error)
    slug = Ladder.objects.filter(game=game).values_list("slug", flat=True).first() \
        if game in games.game_ids() else None
    return reverse("ladder", args=[slug]) if slug else reverse("home")


def play_index(request: HttpRequest) -> HttpResponse:
    """``/play/``: GET, how to play (each game with its form) and your games; POST, start."""
    if request.method == "POST":
        return play_start(request)
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    return render(request, "web/play_index.html", {
        "forms": play_index_forms(),
        "your_games": your_games(request.user) if request.user.is_authenticated else None})


@require_POST
def play_start(request: HttpRequest) -> HttpResponse:
    form = PlayForm(request.POST)
    back = _back(form)
    if not request.user.is_authenticated:
        messages.error(request, "Log in to play against a bot.")
        return redirect(f"{reverse('login')}?next={back}")
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        messages.error(request, sentence(f"{field}: {errors[0]}"))
        return redirect(back)
    try:
        bot_id, builtin = form.opponent_parts()
        opponent = Bot.objects.filter(pk=bot_id).first() if bot_id is not None else None
        if bot_id is not None and opponent is None:
            raise PlayError(f"no bot {bot_id}")
        match = exhibition_create(
            user=request.user, game=form.cleaned_data["game"] or "", opponent=opponent,
            builtin=builtin, seat=form.cleaned_data["seat"] or 0,
            seed=form.cleaned_data["seed"])
    except PlayError as error:
        _refused(request, error)
        return redirect(back)
    except RateLimited as refused:
        messages.error(request, refused.sentence())
        return redirect(back)
    return redirect("play", match_id=match.pk)


@ensure_csrf_cookie  # the page's script sends its moves with the CSRF cookie's token
def play(request: HttpRequest, match_id: int) -> HttpResponse:
    exhibition = exhibition_of(match_id=match_id, user=request.user)
    if exhibition is None:
        return redirect("match", match_id=match_id)
    match = exhibition.match
    game = games.make_game(match.ladder.game, match.game_options)
    return render(request, "web/play.html", {"play_data": {
        "match": match.pk, "game": game.id, "seat": exhibition.seat,
        "state_url": reverse("api:play", args=[match.pk]),
        "move_url": reverse("api:play-move", args=[match.pk]),
        "your_games_url": f"{reverse('play-start')}#{YOUR_GAMES}",
        "match_url": reverse("match", args=[match.pk]),
        "rules_url": reverse("game", args=[game.id]) + "#rules",
        "title": game.title, "options": dict(game.options), "assets": game.viewer_assets()}})


def _on_my_game(request: HttpRequest, match_id: int,
                service: Callable[..., object]) -> HttpResponse:
    """``service(exhibition=...)`` on the person's own game (anyone else: the match's page),
    then back to its play page, with the refusal if there was one."""
    exhibition = exhibition_of(match_id=match_id, user=request.user)
    if exhibition is None:
        return redirect("match", match_id=match_id)
    try:
        service(exhibition=exhibition)
    except PlayError as error:
        messages.error(request, sentence(str(error)))
    return redirect("play", match_id=match_id)


@require_POST
def play_leave(request: HttpRequest, match_id: int) -> HttpResponse:
    """Leave the queue for a board: the waiting game is cancelled."""
    return _on_my_game(request, match_id, exhibition_leave)


@require_POST
def play_resign(request: HttpRequest, match_id: int) -> HttpResponse:
    """Give the game up (only its person): a loss by ``resigned``; its play page shows the end
    as soon as the worker has ended it."""
    return _on_my_game(request, match_id, exhibition_resign)


@require_POST
def play_rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    """A new game against the same opponent, seats swapped, once this one is over: its play
    page, or back to this one with the refusal."""
    exhibition = exhibition_of(match_id=match_id, user=request.user)
    if exhibition is None:
        return redirect("match", match_id=match_id)
    try:
        match = exhibition_rematch(exhibition=exhibition)
    except PlayError as error:
        _refused(request, error)
        return redirect("play", match_id=match_id)
    except RateLimited as refused:
        messages.error(request, refused.sentence())
        return redirect("play", match_id=match_id)
    return redirect("play", match_id=match.pk)
