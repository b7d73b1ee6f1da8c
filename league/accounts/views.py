"""Account pages: sign-up, profile, API tokens. Log-in, log-out and password change are
Django's own views (``urls.py``), with a throttled log-in form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from league.accounts.forms import ProfileForm, SignupForm, TokenForm
from league.accounts.models import ApiToken, Profile
from league.accounts.services import TokenError, profile_update, token_create, token_revoke
from league.rate_limits import RateLimited, client_address, rate_hit


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            rate_hit("signup", client_address(request))
        except RateLimited as refused:
            form.add_error(None, refused.sentence())
            return render(request, "accounts/signup.html", {"form": form}, status=429)
        with transaction.atomic():
            user = form.save()
            profile_update(user=user, display_name=form.cleaned_data["display_name"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, "Welcome! Upload your first bot below.")
        return redirect("my-bots")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    current = Profile.objects.filter(user=request.user).first()
    form = ProfileForm(request.POST or None,
                       initial={"display_name": current.display_name if current else ""})
    if request.method == "POST" and form.is_valid():
        profile_update(user=request.user, display_name=form.cleaned_data["display_name"])
        messages.success(request, "Profile saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    """The list, and the create form; a new token's secret is in this one response only."""
    form = TokenForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        try:
            created = token_create(user=request.user, name=form.cleaned_data["name"])
            form = TokenForm()
        except TokenError as error:
            form.add_error("name", str(error))
        except RateLimited as refused:
            form.add_error("name", refused.sentence())
    listed = ApiToken.objects.filter(user=request.user).order_by("revoked_at", "-created_at")
    response = render(request, "accounts/tokens.html", {
        "form": form, "tokens": listed, "created": created})
    response["Cache-Control"] = "no-store"  # the secret must not sit in a cache
    return response


@login_required
@require_POST
def token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = token_revoke(user=request.user, token_id=token_id)
    except TokenError:
        return HttpResponse("No such token of yours.", status=404, content_type="text/plain")
    messages.success(request, f"Token “{token.name}” revoked; it no longer works.")
    return redirect("tokens")
