"""The notification settings page (linked from the account page): events by channel, the
webhook with its secret (shown once) and the delivery log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from league.accounts.mail import is_verified
from league.notifications import selectors, services
from league.notifications.forms import PreferencesForm, WebhookForm, field_name
from league.notifications.models import EventKind
from league.notifications.targets import TargetError
from league.rate_limits import RateLimited


def _page(request: HttpRequest, *, prefs: PreferencesForm | None = None,
          hook_form: WebhookForm | None = None, secret: str | None = None,
          status: int = 200) -> HttpResponse:
    choices = selectors.preferences_of(request.user)
    prefs = prefs or PreferencesForm(choices=choices)
    hook = selectors.webhook_of(request.user)
    hook_form = hook_form or WebhookForm(initial={"url": hook.url if hook else ""})
    rows = [(kind.label, prefs[field_name(kind, "email")], prefs[field_name(kind, "webhook")])
            for kind in EventKind]
    notices = list(selectors.notices_of(request.user)[:selectors.LOG_LENGTH])
    response = render(request, "notifications/settings.html", {
        "prefs": prefs, "rows": rows, "hook": hook, "hook_form": hook_form, "secret": secret,
        "verified": is_verified(request.user),
        "notices": [(n, selectors.attempts_of(n)) for n in notices]}, status=status)
    response["Cache-Control"] = "no-store"  # a new secret must not sit in a cache
    return response


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request)
    form = PreferencesForm(request.POST, choices=selectors.preferences_of(request.user))
    if form.is_valid():
        try:
            services.preferences_set(user=request.user, choices=form.choices())
        except RateLimited as refused:
            form.add_error(None, refused.sentence())
            return _page(request, prefs=form, status=429)
        messages.success(request, "Notification settings saved.")
        return redirect("notifications")
    return _page(request, prefs=form)


@login_required
@require_POST
def webhook_save(request: HttpRequest) -> HttpResponse:
    form = WebhookForm(request.POST)
    if not form.is_valid():
        return _page(request, hook_form=form)
    try:
        _, secret = services.webhook_set(user=request.user, url=form.cleaned_data["url"])
    except TargetError as error:
        form.add_error("url", str(error))
        return _page(request, hook_form=form)
    except RateLimited as refused:
        form.add_error(None, refused.sentence())
        return _page(request, hook_form=form, status=429)
    if secret is None:
        messages.success(request, "Webhook address saved; its secret is unchanged.")
        return redirect("notifications")
    return _page(request, secret=secret)


@login_required
@require_POST
def webhook_secret(request: HttpRequest) -> HttpResponse:
    try:
        secret = services.webhook_secret_renew(user=request.user)
    except services.NotificationError as error:
        messages.error(request, str(error))
        return redirect("notifications")
    except RateLimited as refused:
        messages.error(request, refused.sentence())
        return redirect("notifications")
    return _page(request, secret=secret)


@login_required
@require_POST
def webhook_delete(request: HttpRequest) -> HttpResponse:
    try:
        services.webhook_remove(user=request.user)
    except RateLimited as refused:
        messages.error(request, refused.sentence())
        return redirect("notifications")
    messages.success(request, "Webhook removed: nothing is posted any more.")
    return redirect("notifications")
