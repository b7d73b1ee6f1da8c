"""Public pages: home, ladder, match, a user's page. Each validates its input, reads through
selectors and renders; bot and version pages are in ``bot_views``."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
    QueryDict,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_POST

import games
from games.players import player_names
from league.competitions.services import challenge_create
from league.ladders import replay_cache
from league.ladders.boards import NOVICE_GAMES
from league.ladders.lifecycle import PLAYED
from league.ladders.models import Ladder, Match
from league.ladders.queues import ladder_queue, wait_words
from league.ladders.replays import (
    NoFrames,
    match_record,
    viewer_header,
)
from league.ladders.season_reads import season_now
from league.ladders.selectors import Board, match_get, queue_counts
from league.rate_limits import RateLimited
from league.versiontests.selectors import match_get_visible, match_hidden, matches_visible
from league.web import selectors
from league.web.competition_forms import ChallengeForm
from league.web.competition_pages import challenger_bots, solo_games
from league.web.game_views import ladder_cards
from league.web.live_parts import parts_changed, parts_for_page, parts_render
from league.web.match_lists import match_rows
from league.web.match_page import PARTS, following, match_parts_context
from league.web.play_pages import ladder_play_form, your_games
from league.web.refusals import form_attempt
from replay.html_export import replay_html

BOARD_PAGE = 50
OPENING_FRAMES = 16
"""Frames the match page carries, so the viewer draws its first without another request."""


def error_page(request: HttpRequest, title: str, message: str, status: int) -> HttpResponse:
    """An error in the site's own dress, or as JSON under /api/ (every API answer is)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=status)
    return render(request, "web/error.html", {"title": title, "message": message},
                  status=status)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return error_page(request, "The form was too old", "The form's security token did not "
                      "match (an old page, or cookies off). Go back, reload the page and send "
                      "it again.", 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Every 404 of the site (``handler404``)."""
    return error_page(request, "Page not found", "There is nothing at this address: it may be "
                      "mistyped, or what was here is gone.", 404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Every 500 of the site (``handler500``); a bare page if even that cannot be drawn (the
    database down, say: the header asks who is logged in)."""
    message = "Something went wrong on our side; it has been logged. Try again in a moment."
    try:
        return error_page(request, "Server error", message, 500)
    except Exception:  # the error page must not fail in its turn
        return HttpResponse(f"<!doctype html><title>Server error</title><h1>Server error</h1>"
                            f"<p>{message}</p>", status=500)


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico on pages that name no icon (JSON, the health check)."""
    return HttpResponseRedirect(static("web/favicon.svg"))


def home(request: HttpRequest) -> HttpResponse:
    ladders = ladder_cards()
    matches = match_rows(matches_visible(Match.objects.filter(status__in=PLAYED), request.user)
                         .order_by("-finished_at"), 20)
    return render(request, "web/home.html", {
        "ladders": ladders, "matches": matches, "queue": queue_counts(),
        "slots": settings.LEAGUE_WORKER_SLOTS})


def ladder(request: HttpRequest, slug: str) -> HttpResponse:
    return _ladder_page(request, get_object_or_404(Ladder, slug=slug))


def _builtin_form(request: HttpRequest, the_ladder: Ladder,
                  data: QueryDict | None = None) -> ChallengeForm | None:
    """The form challenging a built-in player, for a two-player game's ladder and a user with
    a bot that plays it."""
    if the_ladder.game in solo_games() or not request.user.is_authenticated:
        return None
    bots = challenger_bots(request.user, the_ladder.game)
    if data is None and not bots.exists():
        return None
    return ChallengeForm(data, bots=bots, user=request.user, game=the_ladder.game,
                         builtins=player_names(the_ladder.game))


@login_required
@require_POST
def ladder_challenge(request: HttpRequest, slug: str) -> HttpResponse:
    """One of the user's bots against a built-in player of the ladder's game."""
    the_ladder = get_object_or_404(Ladder, slug=slug)
    form = _builtin_form(request, the_ladder, request.POST)
    if form is None:
        raise Http404("A solo game has nobody to challenge.")
    made, status = form_attempt(form, lambda data: challenge_create(
        user=request.user, bot=data["bot"], builtin=data["builtin"],
        games_count=data["games"]))
    if made is not None:
        return redirect("challenge", challenge_id=made.pk)
    return _ladder_page(request, the_ladder, challenge_form=form, status=status)


def _ladder_page(request: HttpRequest, the_ladder: Ladder,
                 challenge_form: ChallengeForm | None = None, status: int = 200
                 ) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:40]
    page = Paginator(Board(the_ladder, query), BOARD_PAGE).get_page(request.GET.get("page"))
    trend_from = selectors.rating_trend(
        ladder=the_ladder, version_ids=[row.version_id for row in page.object_list])
    board = [(row, row.rating - trend_from[row.version_id]
              if row.rating is not None and row.version_id in trend_from else None)
             for row in page.object_list]
    matches = match_rows(matches_visible(Match.objects.filter(ladder=the_ladder,
                                                              status__in=PLAYED), request.user)
                         .order_by("-finished_at"), 10)
    return render(request, "web/ladder.html", {
        **queue_context(the_ladder, request.user),
        "ladder": the_ladder, "game": games.make_game(the_ladder.game).describe(),
        "limits": asdict(the_ladder.sandbox_limits), "board": board, "page": page,
        "q": query, "matches": matches,
        "trend_since_joined": the_ladder.rated and selectors.ladder_younger_than(
            ladder=the_ladder),
        "challenge_form": challenge_form or _builtin_form(request, the_ladder),
        "two_player": the_ladder.game not in solo_games(),
        "play": ladder_play_form(the_ladder), "seasons": season_now(the_ladder)},
        status=status)


def queue_context(the_ladder: Ladder, user: Any) -> dict[str, object]:
    """The ladder's queue for its page: counts, and its next queued matches with their
    players and a guess at when each starts (a game of a test ``user`` may not see is
    counted, not named)."""
    queue = ladder_queue(ladder=the_ladder)
    waits = {q.match_id: q for q in queue.next}
    rows = match_rows(matches_visible(Match.objects.filter(pk__in=list(waits)), user)
                      .order_by("pk"), len(waits))
    return {"queue": queue, "queued": [(row, waits[row.pk]) for row in rows],
            "queue_drained": wait_words(queue.drained),
            "provisional_sigma": settings.LEAGUE_PROVISIONAL_SIGMA,
            "placement_games": NOVICE_GAMES}


def match(request: HttpRequest, match_id: int) -> HttpResponse:
    the_match = match_get_visible(user=request.user, match_id=match_id)
    try:
        header = viewer_header(match=the_match, user=request.user, opening=OPENING_FRAMES)
        no_replay = ""
    except NoFrames as error:
        header, no_replay = None, str(error)
    context = match_parts_context(request, the_match)
    return render(request, "web/match.html", {
        **context, "parts": parts_for_page(parts_render(request, "match", PARTS, context)),
        "viewer_header": header, "no_replay": no_replay, "viewer_modules": viewer_modules(header)})


def match_status(request: HttpRequest, match_id: int) -> JsonResponse:
    """What a match's page polls while the match is queued or running: its status and each
    part of the page whose text changed (``?known=name:stamp,...``)."""
    the_match = match_get_visible(user=request.user, match_id=match_id)
    context = match_parts_context(request, the_match)
    parts = parts_render(request, "match", PARTS, context)
    return JsonResponse({"id": the_match.pk, "state": the_match.status,
                         "done": not following(the_match), "interval": context["interval"],
                         "parts": parts_changed(parts, request)})


def match_html(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match as one self-contained HTML file (viewer and frames inside), with the logs
    this reader may see: the heaviest read of the site, so a finished match's file is made
    once and kept (``league.ladders.replay_cache``), and an anonymous address's files made
    count against the ``heavy`` rate."""
    stamp = replay_cache.stamp_of(match_id)
    if stamp is not None and match_hidden(request.user, match_id, stamp.kind):
        raise Http404(f"no match {match_id}")
    seats = replay_cache.log_seats(match_id, request.user)
    name = stamp.name("html", seats) if stamp is not None else None
    response = replay_cache.not_modified(request, name)
    if response is None:
        def make() -> bytes:  # only when the file is not kept
            the_match = match_get(match_id=match_id)
            try:
                record = match_record(match=the_match)
            except NoFrames as error:
                raise Http404(str(error)) from None
            return replay_html(record, log_seats=seats,
                               title=f"Match {the_match.pk}: {the_match.ladder.title}").encode()

        try:
            body, gzipped = replay_cache.derived(name, make, gzipped=replay_cache.gzip_ok(request),
                                                 charge=replay_cache.heavy_read(request))
        except RateLimited as refused:
            response = HttpResponse(refused.sentence(), status=429,
                                    content_type="text/plain; charset=utf-8")
            response["Retry-After"] = str(refused.wait)
            return replay_cache.headers(response, stamp, None)
        assert stamp is not None  # else make() raised Http404
        response = HttpResponse(body, content_type="text/html; charset=utf-8")
        if gzipped:
            response["Content-Encoding"] = "gzip"
        response["Content-Disposition"] = (
            f'attachment; filename="match-{match_id}-{stamp.game}.html"')
        # The file runs its own inline modules when opened from disk; served here it is a
        # download, never a page of this site.
        response["Content-Security-Policy"] = "sandbox; default-src 'none'"
    return replay_cache.headers(response, stamp, name, private=bool(seats), per_reader=True)


def viewer_modules(header: dict | None) -> list[str]:
    """The viewer's modules, preloaded by the page so the first frame needs no import chain."""
    if header is None:
        return []
    names = ["boot", "viewer", "frames", "dom", "state", "render", "movelist", "controls",
             f"games/{header['game']}", "games/common"]
    return [f"viewer/{name}.js" for name in names]


def user_page(request: HttpRequest, username: str) -> HttpResponse:
    owner, bots = selectors.user_bots(username=username)
    # your games against bots: on your own page only (a game going is yours to see)
    mine = your_games(owner) if request.user.pk == owner.pk else None
    return render(request, "web/user.html", {"owner": owner, "bots": bots,
                                             "your_games": mine})

