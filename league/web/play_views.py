"""Playing against a bot: the form's target (``POST /play/``, back to the page it came from
with the refusal as a message) and the play page, only for the person playing (anyone else
goes to the match's page). The page's JSON is the API's (``league.api.play_views``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

import games
from league.bots.models import Bot
from league.ladders.models import Ladder
from league.ladders.play.services import PlayError, exhibition_create, exhibition_of
from league.rate_limits import RateLimited
from league.web.play_forms import PlayForm
from league.web.refusals import sentence


def _back(form: PlayForm) -> str:
    """The page the form was on: the bot's, else the game's ladder's, else home."""
    data = form.data
    opponent = str(data.get("opponent", "")).strip()
    if opponent.isdigit() and Bot.objects.filter(pk=int(opponent)).exists():
        return reverse("bot", args=[int(opponent)])
    slug = Ladder.objects.filter(game=str(data.get("game", ""))[:32]).values_list(
        "slug", flat=True).first()
    return reverse("ladder", args=[slug]) if slug else reverse("home")


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
        messages.error(request, sentence(str(error)))
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
        "match_url": reverse("match", args=[match.pk]),
        "title": game.title, "options": dict(game.options), "assets": game.viewer_assets()}})
