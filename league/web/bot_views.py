"""Bot and version pages, the owner's actions, and "my bots" with the upload form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from league.bots.models import Bot, BotVersion
from league.bots.selectors import (
    bot_get,
    is_owner,
    may_download_source,
    owner_or_staff,
    version_get,
)
from league.bots.services import (
    UploadError,
    bot_enable,
    bot_set_challengeable,
    bot_set_source_public,
)
from league.competitions.services import challenge_create
from league.ladders import stats
from league.ladders.boards import NOVICE_GAMES
from league.ladders.season_reads import bot_seasons
from league.ladders.services import bot_disable, bot_retire, version_upload
from league.versiontests.services import VersionTestError
from league.versiontests.uploads import version_upload_tested
from league.web import selectors, verdicts
from league.web.competition_forms import ChallengeableForm, ChallengeForm
from league.web.competition_pages import (
    bot_challenges,
    bot_tournaments,
    challenger_bots,
    solo_games,
)
from league.web.forms import ModerationForm, UploadForm, VisibilityForm
from league.web.play_pages import bot_play_form
from league.web.refusals import form_attempt
from league.web.versiontest_pages import VersionTestForm, bot_versiontests


def bot_stats(request: HttpRequest, bot_id: int) -> HttpResponse:
    """A version's statistics (``?version=N``; else the active one), from the kept sums."""
    the_bot = bot_get(user=request.user, bot_id=bot_id)
    try:
        page = stats.bot_stats(bot=the_bot, number=_version_number(request.GET.get("version")))
    except BotVersion.DoesNotExist as e:
        raise Http404(str(e)) from None
    return render(request, "web/bot_stats.html", {"page": page})


def _version_number(raw: str | None) -> int | None:
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 9:
        raise Http404("A version is a number: ?version=3")
    return int(raw)


def bot(request: HttpRequest, bot_id: int) -> HttpResponse:
    return _bot_page(request, bot_get(user=request.user, bot_id=bot_id))


def _bot_page(request: HttpRequest, the_bot: Bot, challenge_form: ChallengeForm | None = None,
              status: int = 200, versiontest_form: VersionTestForm | None = None
              ) -> HttpResponse:
    mine = is_owner(request.user, the_bot)
    page = selectors.bot_page(bot=the_bot, user=request.user)
    return render(request, "web/bot.html", {
        "page": page,
        "source": may_download_source(request.user, the_bot),
        "is_owner": mine,
        "upload_form": UploadForm(initial={"game": the_bot.game, "name": the_bot.name}),
        "play": bot_play_form(the_bot),
        "provisional_sigma": settings.LEAGUE_PROVISIONAL_SIGMA,
        "placement_games": NOVICE_GAMES,
        "seasons": bot_seasons(the_bot),
        **bot_versiontests(request.user, the_bot, versiontest_form, mine, page.versions),
        **_competitions(request, the_bot, challenge_form)}, status=status)


def bot_page_response(request: HttpRequest, the_bot: Bot, *,
                      versiontest_form: VersionTestForm | None = None,
                      status: int = 200) -> HttpResponse:
    """The bot's page with a form of another module shown again (its errors)."""
    return _bot_page(request, the_bot, status=status, versiontest_form=versiontest_form)


def _competitions(request: HttpRequest, the_bot: Bot,
                  challenge_form: ChallengeForm | None) -> dict[str, object]:
    """The bot's tournaments and challenges, and the challenge form (or why there is none)."""
    user = request.user
    mine = is_owner(user, the_bot)
    why_not = ""
    if the_bot.game in solo_games():
        why_not = "solo"
    elif not (the_bot.accepts_challenges or mine):
        why_not = "refuses"
    elif not the_bot.plays:
        why_not = "not playing"
    elif not user.is_authenticated:
        why_not = "anonymous"
    else:
        bots = challenger_bots(user, the_bot.game, exclude=the_bot.pk)
        if challenge_form is None and bots.exists():
            challenge_form = ChallengeForm(bots=bots, user=user, game=the_bot.game)
        if challenge_form is None:
            why_not = "no bot"
    return {"tournaments": bot_tournaments(the_bot),
            "challenges": bot_challenges(the_bot, user),
            "challenge_form": challenge_form if not why_not else None,
            "challenge_why_not": why_not}


@login_required
@require_POST
def bot_challenge(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Challenge this bot with one of the user's own: the challenge's page, or this page with
    the form's error (a rate limit's refusal too)."""
    target = bot_get(user=request.user, bot_id=bot_id)
    form = ChallengeForm(request.POST, bots=challenger_bots(request.user, target.game,
                                                            exclude=target.pk),
                         user=request.user, game=target.game)
    made, status = form_attempt(form, lambda data: challenge_create(
        user=request.user, bot=data["bot"], opponent=target, games_count=data["games"]))
    if made is not None:
        return redirect("challenge", challenge_id=made.pk)
    return _bot_page(request, target, challenge_form=form, status=status)


@login_required
@require_POST
def bot_challengeable(request: HttpRequest, bot_id: int) -> HttpResponse:
    the_bot = bot_set_challengeable(bot=_owned_bot(request, bot_id),
                                    accepts=_ticked(request, ChallengeableForm, "accepts"))
    now = ("takes challenges" if the_bot.accepts_challenges
           else "refuses challenges: its page shows no challenge form")
    messages.success(request, f"{the_bot.name} {now}.")
    return redirect("bot", bot_id=the_bot.pk)


def _ticked(request: HttpRequest, form_class: type[forms.Form], name: str) -> bool:
    """A one-checkbox form's answer: always valid, a box left unticked is absent (False)."""
    form = form_class(request.POST)
    form.is_valid()
    return bool(form.cleaned_data[name])


def _owned_bot(request: HttpRequest, bot_id: int) -> Bot:
    """The bot when ``request.user`` owns it; 404 otherwise (even for staff: staff moderate
    in the admin, they do not act as the owner)."""
    the_bot = Bot.objects.filter(pk=bot_id).first()
    if the_bot is None or not is_owner(request.user, the_bot):
        raise Http404("No such bot of yours.")
    return the_bot


@login_required
@require_POST
def bot_retire_view(request: HttpRequest, bot_id: int) -> HttpResponse:
    the_bot = bot_retire(bot=_owned_bot(request, bot_id))
    messages.success(request, f"{the_bot.name} is retired: it plays no more matches.")
    return redirect("bot", bot_id=the_bot.pk)


@login_required
@require_POST
def bot_visibility(request: HttpRequest, bot_id: int) -> HttpResponse:
    the_bot = bot_set_source_public(
        bot=_owned_bot(request, bot_id),
        source_public=_ticked(request, VisibilityForm, "source_public"))
    messages.success(request, f"{the_bot.name}'s source can now be downloaded by "
                     f"{'anyone' if the_bot.source_public else 'you and staff only'}; its logs "
                     "stay yours.")
    return redirect("bot", bot_id=the_bot.pk)


@login_required
@require_POST
def bot_moderate(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Staff: disable a bot with a reason (it leaves the board, queued matches cancelled), or
    enable it again."""
    the_bot = Bot.objects.filter(pk=bot_id).first() if request.user.is_staff else None
    if the_bot is None:
        raise Http404("No such bot.")
    form = ModerationForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give a reason to disable a bot (the owner sees it).")
    elif form.cleaned_data["action"] == "disable":
        bot_disable(bot=the_bot, reason=form.cleaned_data["reason"])
        messages.success(request, f"{the_bot.name} is disabled.")
    else:
        bot_enable(bot=the_bot)
        messages.success(request, f"{the_bot.name} is enabled again.")
    return redirect("bot", bot_id=the_bot.pk)


def version(request: HttpRequest, version_id: int) -> HttpResponse:
    the_version = version_get(user=request.user, version_id=version_id)
    return render(request, "web/version.html", {
        "page": selectors.version_page(version=the_version),
        "private": owner_or_staff(request.user, the_version.bot),
        "source": may_download_source(request.user, the_version.bot)})


def version_status(request: HttpRequest, version_id: int) -> JsonResponse:
    """What the upload page polls while a version validates."""
    v = version_get(user=request.user, version_id=version_id)
    return JsonResponse(verdicts.version_status(request.user, v))


def version_source(request: HttpRequest, version_id: int) -> HttpResponse:
    """The archive as uploaded (zipped), for its owner and staff only."""
    v = version_get(user=request.user, version_id=version_id, with_archive=True)
    if not may_download_source(request.user, v.bot):
        raise Http404("Only the bot's owner shares this bot's source.")
    response = HttpResponse(bytes(v.archive), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{v.bot.name}-v{v.number}.zip"'
    return response


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    """The list and the upload form (a body over the cap never gets here:
    ``league.bots.uploads.UploadSizeMiddleware``)."""
    # the game a game's page sent the user here for, else the one they uploaded for last
    form = UploadForm(initial={"game": request.GET.get("game")
                               or request.session.get("upload_game", "")})
    status = 200
    if request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        new, status = form_attempt(form, lambda data: _upload(request, data),
                                   refusal=(UploadError, VersionTestError), say=str)
        if new is not None:
            request.session["uploaded"] = new.pk  # the banner follows it to its verdict
            return redirect("my-bots")
    uploaded = request.session.pop("uploaded", None) if request.method == "GET" else None
    return render(request, "web/my_bots.html", {
        "bots": verdicts.with_log_tails(selectors.my_bots(user=request.user)), "form": form,
        "uploaded": verdicts.uploaded(request.user, uploaded)}, status=status)


def _upload(request: HttpRequest, data: dict[str, Any]) -> BotVersion:
    request.session["upload_game"] = data["game"]
    fields = {"owner": request.user, "game": data["game"], "name": data["name"],
              "filename": data["file"].name, "data": data["file"].read()}
    if data.get("test"):  # active only if it passes its test, with the tests' defaults
        return version_upload_tested(**fields)
    return version_upload(**fields)
