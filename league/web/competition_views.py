"""Tournaments and challenges: the list, a new tournament, a tournament's page with its table,
rounds and bracket (and the JSON its script polls while it runs), entering and withdrawing a
bot, cancelling; a challenge's page. Challenging a bot is on the bot's page (``bot_views``),
a built-in player on the ladder's (``views``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

import games
from league.bots.models import Bot
from league.bots.selectors import owner_or_staff, user_or_staff
from league.competitions.conditions import conditions_words
from league.competitions.finals import results_hidden, results_release
from league.competitions.models import (
    DONE,
    UPCOMING,
    Challenge,
    ChallengeState,
    Tournament,
    TournamentState,
)
from league.competitions.recurring import RecurrenceError, recurrence_stop, schedule_words
from league.competitions.selectors import (
    RULES,
    SERIES_RULE,
    challenge_get,
    challenge_page,
    recurring_view,
    tournament_get,
)
from league.competitions.services import (
    challenge_cancel,
    entry_register,
    entry_withdraw,
    tournament_cancel,
    tournament_create,
)
from league.ids import parse_id
from league.ladders.models import MatchStatus
from league.web.competition_forms import CancelForm, EntryForm, TournamentForm
from league.web.competition_pages import (
    TournamentView,
    entrants_for,
    registration_open,
    solo_games,
    soon,
    tournament_view,
    tournaments,
)
from league.web.live_parts import parts_changed, parts_for_page, parts_render
from league.web.refusals import form_attempt, message_attempt
from league.web.views import error_page

FAST_MS = 3000
"""How often a page that is following play asks for news."""
SLOW_MS = 30000
"""How often a tournament that starts later asks (its start is not far off, or someone
changed the field)."""
TOURNAMENT_PARTS = ["status", "entries", "standings", "bracket", "rounds", "manage"]
CHALLENGE_PARTS = ["summary", "games"]


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/tournaments.html", {"lists": tournaments()})


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    staff = bool(request.user.is_staff)
    status = 200
    if request.method == "POST":
        form = TournamentForm(request.POST, staff=staff)
        t, status = form_attempt(form, lambda data: tournament_create(
            user=request.user, name=data["name"], game=data["game"], format=data["format"],
            games_per_series=data["games"], rounds=data["rounds"],
            third_place=data["third_place"], bracket_reset=data["bracket_reset"],
            field_limit=data["field_limit"], registration_closes=data["registration_closes"],
            starts_at=data["starts_at"], official=data.get("official", False),
            limits=data.get("limits"), description=data["description"],
            open_to_league_bots=data["open_to_league_bots"], every=data["every"],
            min_rated_games=data["min_rated_games"] or 0, rating_min=data["rating_min"],
            rating_max=data["rating_max"], allowed_owners=data["allowed_owners"]))
        if t is not None:
            messages.success(request, f"{t.name} is open for registration"
                             + (f"; it comes back {schedule_words(t.recurrence, t.starts_at)}."
                                if t.recurrence else "."))
            return redirect("tournament", tournament_id=t.pk)
    else:
        start = (timezone.now() + timedelta(days=1)).replace(minute=0, second=0,
                                                             microsecond=0)
        form = TournamentForm(staff=staff, initial={"registration_closes": start,
                                                    "starts_at": start})
    return render(request, "web/tournament_new.html", {
        "form": form, "form_data": {"solo": solo_games(), "fresh": not form.is_bound}},
        status=status)


# -- a tournament's page -----------------------------------------------------------------------

def _tournament_context(request: HttpRequest, t: Tournament,
                        entry_form: EntryForm | None = None) -> dict[str, Any]:
    user = request.user
    hidden = results_hidden(t, user)
    view = tournament_view(t, hidden=hidden)
    is_open = registration_open(t)
    eligible, others = entrants_for(user, t) if is_open else ([], [])
    if entry_form is None and eligible:
        entry_form = EntryForm(bots=eligible, user=user, game=t.game)
    return {
        "view": view, "t": t, "is_open": is_open, "entry_form": entry_form,
        "ineligible": others, "signed_in": user.is_authenticated,
        "manage": t.state not in DONE and user_or_staff(user, t.created_by_id),
        "hidden": hidden,
        "release": t.results_held and user.is_staff,
        "may_withdraw": {e.pk for e in view.page.entries if owner_or_staff(user, e.bot)}
        if t.state in UPCOMING else set(),
        "cancel_form": CancelForm(),
        "due": t.starts_at <= timezone.now(),
        "conditions": conditions_words(t),
        "recurring": recurring_view(t),
        "stop_recurring": t.recurrence is not None and t.recurrence.active
        and user_or_staff(user, t.recurrence.created_by_id),
    }


def _interval(view: TournamentView) -> int:
    if view.done:
        return 0
    if view.t.state == TournamentState.RUNNING or soon(view.t):
        return FAST_MS
    return SLOW_MS


def tournament(request: HttpRequest, tournament_id: int, entry_form: EntryForm | None = None,
               status: int = 200) -> HttpResponse:
    t = tournament_get(tournament_id=tournament_id)
    context = _tournament_context(request, t, entry_form)
    parts = parts_render(request, "tournament", TOURNAMENT_PARTS, context)
    view = context["view"]
    return render(request, "web/tournament.html", {
        **context, "parts": parts_for_page(parts),
        "rules": RULES[view.fmt], "series_rule": SERIES_RULE, "interval": _interval(view),
        "game": games.game_class(t.game).title}, status=status)


def tournament_status(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """What the page's script polls: the state, and each live part of the page whose text
    changed since the stamps it sent (``?known=name:stamp,...``)."""
    t = tournament_get(tournament_id=tournament_id)
    context = _tournament_context(request, t)
    view = context["view"]
    parts = parts_render(request, "tournament", TOURNAMENT_PARTS, context)
    return JsonResponse({
        "id": t.pk, "state": t.state, "done": view.done, "round": view.current_round,
        "rounds": view.planned, "interval": _interval(view),
        "parts": parts_changed(parts, request)})


@login_required
@require_POST
def tournament_enter(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = tournament_get(tournament_id=tournament_id)
    eligible, _ = entrants_for(request.user, t)
    form = EntryForm(request.POST, bots=eligible, user=request.user, game=t.game)
    entry, status = form_attempt(form, lambda data: entry_register(
        tournament=t, bot=data["bot"], user=request.user))
    if entry is not None:
        messages.success(request, f"{form.cleaned_data['bot'].name} is entered in {t.name}.")
        return redirect("tournament", tournament_id=t.pk)
    return tournament(request, t.pk, entry_form=form, status=status)


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = tournament_get(tournament_id=tournament_id)
    bot_id = parse_id(request.POST.get("bot", ""))
    if bot_id is None:
        return error_page(request, "Bad request", "The bot is given by its id, in digits "
                          "0-9.", 400)
    bot = Bot.objects.filter(pk=bot_id).first()
    if bot is None:
        raise Http404("No such bot.")
    if message_attempt(request, lambda: entry_withdraw(tournament=t, bot=bot,
                                                       user=request.user)) is not None:
        messages.success(request, f"{bot.name} is withdrawn from {t.name}.")
    return redirect("tournament", tournament_id=t.pk)


@login_required
@require_POST
def tournament_stop_recurring(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = tournament_get(tournament_id=tournament_id)

    def stop() -> object:
        if t.recurrence is None:
            raise RecurrenceError(f"{t.name} does not come back")
        return recurrence_stop(user=request.user, recurrence=t.recurrence)

    if message_attempt(request, stop) is not None:
        messages.success(request, f"{t.name} will not come back; the editions made stay.")
    return redirect("tournament", tournament_id=t.pk)


@login_required
@require_POST
def tournament_release(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Staff: a season's finals' held-back results shown to everyone."""
    t = tournament_get(tournament_id=tournament_id)
    if message_attempt(request, lambda: results_release(tournament=t,
                                                        user=request.user)) is not None:
        messages.success(request, f"{t.name}'s results are released.")
    return redirect("tournament", tournament_id=t.pk)


@login_required
@require_POST
def tournament_cancel_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = tournament_get(tournament_id=tournament_id)
    form = CancelForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    if message_attempt(request, lambda: tournament_cancel(tournament=t, user=request.user,
                                                          reason=reason)) is not None:
        messages.success(request, f"{t.name} is cancelled.")
    return redirect("tournament", tournament_id=t.pk)


# -- a challenge's page ----------------------------------------------------------------------

def _challenge_context(c: Challenge) -> dict[str, Any]:
    page = challenge_page(c)
    return {"c": c, "page": page, "done": c.state != ChallengeState.PLAYING,
            "rows": [(g, g.challenger_seat) for g in page.games],
            "played": page.wins + page.losses + page.draws,
            "live": sum(1 for g in page.games if g.status == MatchStatus.RUNNING)}


def challenge(request: HttpRequest, challenge_id: int) -> HttpResponse:
    c = challenge_get(challenge_id=challenge_id)
    context = _challenge_context(c)
    parts = parts_render(request, "challenge", CHALLENGE_PARTS, context)
    return render(request, "web/challenge.html", {
        **context, "interval": 0 if context["done"] else FAST_MS,
        "parts": parts_for_page(parts),
        "may_cancel": not context["done"] and user_or_staff(request.user, c.challenger_id)})


@login_required
@require_POST
def challenge_cancel_view(request: HttpRequest, challenge_id: int) -> HttpResponse:
    c = challenge_get(challenge_id=challenge_id)
    if message_attempt(request, lambda: challenge_cancel(challenge=c,
                                                         user=request.user)) is not None:
        messages.success(request, f"Challenge {c.pk} is cancelled.")
    return redirect("challenge", challenge_id=c.pk)


def challenge_status(request: HttpRequest, challenge_id: int) -> JsonResponse:
    c = challenge_get(challenge_id=challenge_id)
    context = _challenge_context(c)
    parts = parts_render(request, "challenge", CHALLENGE_PARTS, context)
    page = context["page"]
    return JsonResponse({
        "id": c.pk, "state": c.state, "done": context["done"],
        "interval": 0 if context["done"] else FAST_MS,
        "wins": page.wins, "losses": page.losses, "draws": page.draws,
        "parts": parts_changed(parts, request)})
