"""Bot and version pages, the owner's actions, and "my bots" with the upload form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from league.bots.models import Bot
from league.bots.selectors import bot_get, owner_or_staff, version_get
from league.bots.services import UploadError, bot_enable, bot_set_public
from league.ladders.services import bot_disable, bot_retire, version_upload
from league.rate_limits import RateLimited
from league.web import selectors
from league.web.forms import ModerationForm, UploadForm, VisibilityForm


def bot(request: HttpRequest, bot_id: int) -> HttpResponse:
    the_bot = bot_get(user=request.user, bot_id=bot_id)
    return render(request, "web/bot.html", {
        "page": selectors.bot_page(bot=the_bot),
        "is_owner": request.user.is_authenticated and the_bot.owner_id == request.user.pk,
        "upload_form": UploadForm(initial={"game": the_bot.game, "name": the_bot.name})})


def _owned_bot(request: HttpRequest, bot_id: int) -> Bot:
    """The bot when ``request.user`` owns it; 404 otherwise (even for staff: staff moderate
    in the admin, they do not act as the owner)."""
    the_bot = Bot.objects.filter(pk=bot_id, owner_id=request.user.pk).first()
    if the_bot is None:
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
    form = VisibilityForm(request.POST)
    form.is_valid()  # a boolean field: always valid, absent means False
    the_bot = bot_set_public(bot=_owned_bot(request, bot_id), public=form.cleaned_data["public"])
    messages.success(request, f"{the_bot.name} is now "
                     f"{'public' if the_bot.public else 'private: only you and staff see it'}.")
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
        "private": owner_or_staff(request.user, the_version.bot)})


def version_status(request: HttpRequest, version_id: int) -> JsonResponse:
    """What the upload page polls while a version validates."""
    v = version_get(user=request.user, version_id=version_id)
    return JsonResponse({"id": v.pk, "status": v.status, "reason": v.reason,
                         "done": v.status != "validating"})


def version_source(request: HttpRequest, version_id: int) -> HttpResponse:
    """The archive as uploaded (zipped), for its owner and staff only."""
    v = version_get(user=request.user, version_id=version_id, with_archive=True)
    if not owner_or_staff(request.user, v.bot):
        raise Http404("Only the bot's owner can download its source.")
    response = HttpResponse(bytes(v.archive), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{v.bot.name}-v{v.number}.zip"'
    return response


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    """The list and the upload form (a body over the cap never gets here:
    ``league.bots.uploads.UploadSizeMiddleware``)."""
    form = UploadForm(initial={"game": request.session.get("upload_game", "")})
    status = 200
    if request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            request.session["upload_game"] = form.cleaned_data["game"]
            try:
                new = version_upload(owner=request.user, game=form.cleaned_data["game"],
                                     name=form.cleaned_data["name"], filename=upload.name,
                                     data=upload.read())
            except UploadError as error:
                form.add_error(None, str(error))
            except RateLimited as refused:
                form.add_error(None, refused.sentence())
                status = 429
            else:
                messages.success(request, f"{new} uploaded; it is validating now.")
                return redirect("my-bots")
        status = status if status != 200 else 400
    return render(request, "web/my_bots.html", {
        "bots": selectors.my_bots(user=request.user), "form": form}, status=status)
