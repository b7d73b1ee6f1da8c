"""A version test's page (live while it runs), the JSON its script polls, and the owner's
actions: start one from the bot's page, make it public or private, cancel it. Who sees a test:
its owner and staff, and anyone once public (``versiontests.selectors``); anyone else gets a
404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from league.bots.selectors import bot_get, is_owner
from league.versiontests.selectors import versiontest_get
from league.versiontests.services import (
    VersionTestError,
    version_test_cancel,
    version_test_create,
    version_test_set_public,
)
from league.web.bot_views import bot_page_response
from league.web.game_pages import document_html
from league.web.live_parts import parts_changed, parts_for_page, parts_render
from league.web.refusals import form_attempt, sentence
from league.web.versiontest_pages import VersionTestForm, versiontest_context

FAST_MS = 2000
"""How often a running test's page asks for news (a pair of quick games takes seconds)."""
PARTS = ["summary", "chart", "games"]


def versiontest(request: HttpRequest, test_id: int) -> HttpResponse:
    test = versiontest_get(user=request.user, test_id=test_id)
    context = versiontest_context(test, request.user)
    parts = parts_render(request, "versiontest", PARTS, context)
    return render(request, "web/versiontest.html", {
        **context, "interval": 0 if context["done"] else FAST_MS,
        "parts": parts_for_page(parts)})


def versiontest_status(request: HttpRequest, test_id: int) -> JsonResponse:
    test = versiontest_get(user=request.user, test_id=test_id)
    context = versiontest_context(test, request.user)
    parts = parts_render(request, "versiontest", PARTS, context)
    return JsonResponse({"id": test.pk, "state": test.state, "done": context["done"],
                         "interval": 0 if context["done"] else FAST_MS,
                         "llr": test.llr, "pairs": test.pairs,
                         "parts": parts_changed(parts, request)})


@login_required
@require_POST
def bot_versiontest(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Start a test from the bot's page (its owner): the test's page, or the bot's page with
    the form's error (a limit's or the rate's refusal too)."""
    the_bot = bot_get(user=request.user, bot_id=bot_id)
    if not is_owner(request.user, the_bot):
        raise Http404("only its owner tests a bot's versions")
    form = VersionTestForm(request.POST, bot=the_bot)
    made, status = form_attempt(form, lambda data: version_test_create(
        user=request.user, **data), refusal=VersionTestError)
    if made is not None:
        return redirect("versiontest", test_id=made.pk)
    return bot_page_response(request, the_bot, versiontest_form=form, status=status)


@login_required
@require_POST
def versiontest_cancel(request: HttpRequest, test_id: int) -> HttpResponse:
    test = versiontest_get(user=request.user, test_id=test_id)
    try:
        version_test_cancel(user=request.user, test=test,
                            reason="cancelled by its owner" if request.user.pk == test.owner_id
                            else "cancelled by staff")
    except VersionTestError as error:
        messages.error(request, sentence(str(error)))
    return redirect("versiontest", test_id=test.pk)


@login_required
@require_POST
def versiontest_public(request: HttpRequest, test_id: int) -> HttpResponse:
    test = versiontest_get(user=request.user, test_id=test_id)
    try:
        version_test_set_public(user=request.user, test=test,
                                public=request.POST.get("public") == "on")
    except VersionTestError as error:
        messages.error(request, sentence(str(error)))
    return redirect("versiontest", test_id=test.pk)


def versiontest_about(request: HttpRequest) -> HttpResponse:
    """How a test is worked out: docs/version-tests.md as a page of the site."""
    title, body = document_html("version-tests")
    return render(request, "web/document.html", {"title": title, "body": body})
