"""Account pages: sign-up, profile with the e-mail address, API tokens. Log-in, log-out,
password change and reset are Django's own views (``urls.py``), with throttled forms."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

import games
from league.accounts import mail
from league.accounts.forms import (
    EmailForm,
    ProfileForm,
    SignupForm,
    ThrottledPasswordChangeForm,
    TokenForm,
    VerifiedResetForm,
)
from league.accounts.models import ApiToken, Profile
from league.accounts.services import TokenError, profile_update, token_create, token_revoke
from league.rate_limits import RateLimited, client_address, rate_hit

logger = logging.getLogger(__name__)


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            rate_hit("signup", client_address(request))
        except RateLimited as refused:
            form.add_error(None, refused.sentence())
            return render(request, "accounts/signup.html", {"form": form}, status=429)
        with transaction.atomic():
            user = form.save(commit=False)
            user.email = mail.normalized(form.cleaned_data["email"] or "")
            user.save()
            profile_update(user=user, display_name=form.cleaned_data["display_name"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, "Welcome! Upload your first bot below.")
        if user.email:
            _mail_link(request, lambda: mail.send_confirmation(user, user.email, _base(request)),
                       f"We mailed a link to {user.email}: follow it to confirm the address.")
        game = request.GET.get("game", "")  # signed up from a game's page: upload for it
        return redirect(reverse("my-bots") + (f"?game={game}" if game in games.game_ids()
                                               else ""))
    return render(request, "accounts/signup.html", {"form": form})


def _base(request: HttpRequest) -> str:
    """The site's address as this request reached it, for the links mailed."""
    return request.build_absolute_uri("/")


def _mail_link(request: HttpRequest, send: Callable[[], object], sent: str) -> bool:
    """Send a mail of a link, and say on the next page that it went or why it did not."""
    try:
        send()
    except RateLimited as refused:
        messages.error(request, f"{refused.sentence()[:-1]}: no mail was sent.")
        return False
    except OSError:  # the mail server is down or refused: the account is made all the same
        logger.exception("mailing a link failed")
        messages.error(request, "The mail could not be sent just now; send it again from "
                                "your account page later.")
        return False
    messages.success(request, sent)
    return True


def _profile_page(request: HttpRequest, form: ProfileForm | None = None,
                  email_form: EmailForm | None = None, status: int = 200) -> HttpResponse:
    current = Profile.objects.filter(user=request.user).first()
    form = form or ProfileForm(initial={"display_name": current.display_name if current
                                        else ""})
    return render(request, "accounts/profile.html", {
        "form": form, "email_form": email_form or EmailForm(),
        "verified": mail.is_verified(request.user)}, status=status)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _profile_page(request)
    form = ProfileForm(request.POST)
    if form.is_valid():
        profile_update(user=request.user, display_name=form.cleaned_data["display_name"])
        messages.success(request, "Profile saved.")
        return redirect("profile")
    return _profile_page(request, form=form)


@login_required
@require_POST
def email_change_view(request: HttpRequest) -> HttpResponse:
    """Add or change the account's address (``mail.email_change``)."""
    form = EmailForm(request.POST)
    if not form.is_valid():
        return _profile_page(request, email_form=form)
    try:
        sent = mail.email_change(request.user, form.cleaned_data["email"],
                                 form.cleaned_data["password"], _base(request))
    except RateLimited as refused:
        form.add_error(None, refused.sentence())
        return _profile_page(request, email_form=form, status=429)
    except mail.EmailError as error:
        form.add_error("password", str(error))
        return _profile_page(request, email_form=form)
    except OSError:
        logger.exception("mailing a link failed")
        form.add_error(None, "The mail could not be sent just now; try again later.")
        return _profile_page(request, email_form=form, status=503)
    if sent.pending:
        messages.success(request, f"We mailed a link to {sent.address}. Your address stays "
                                  f"{request.user.email} until you follow it; the old "
                                  "address was told.")
    else:
        messages.success(request, f"We mailed a link to {sent.address}: follow it to "
                                  "confirm the address.")
    return redirect(reverse("profile") + "#email")


@login_required
@require_POST
def email_resend(request: HttpRequest) -> HttpResponse:
    """The confirmation link of the account's unverified address, mailed again."""
    if request.user.email and not mail.is_verified(request.user):
        _mail_link(request, lambda: mail.resend_confirmation(request.user, _base(request)),
                   f"We mailed the link to {request.user.email} again.")
    return redirect(reverse("profile") + "#email")


def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """A mailed link followed: the address is the account's, verified. Works logged out (a
    mail read on another device); a bad link says why without naming anyone."""
    try:
        user, address = mail.confirm(token)
    except mail.LinkError as error:
        return render(request, "accounts/email_confirmed.html", {"error": str(error)},
                      status=400)
    if request.user.is_authenticated and request.user.pk == user.pk:
        messages.success(request, f"Your address {address} is confirmed.")
        return redirect(reverse("profile") + "#email")
    return render(request, "accounts/email_confirmed.html", {"address": address})


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


def _throttled(form: Form, response: HttpResponse) -> HttpResponse:
    """A form refused by its rate limit answers 429, the others' way."""
    if any(error.code == "throttled" for errors in form.errors.as_data().values()
           for error in errors):
        response.status_code = 429
    return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's: the same page follows for any address, known or not (``VerifiedResetForm``);
    mail sent there that fails is logged by Django, not shown."""

    form_class = VerifiedResetForm
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/mail/password_reset.txt"
    subject_template_name = "accounts/mail/password_reset_subject.txt"

    def get_form_kwargs(self) -> dict[str, object]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_invalid(self, form: Form) -> HttpResponse:
        return _throttled(form, super().form_invalid(form))


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"

    def form_valid(self, form: Form) -> HttpResponse:
        response = super().form_valid(form)
        mail.password_changed(self.user)
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = ThrottledPasswordChangeForm
    template_name = "accounts/password_change.html"

    def form_valid(self, form: Form) -> HttpResponse:
        response = super().form_valid(form)
        mail.password_changed(self.request.user)
        return response

    def form_invalid(self, form: Form) -> HttpResponse:
        return _throttled(form, super().form_invalid(form))
