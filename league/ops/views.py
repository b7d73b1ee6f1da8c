"""The operator's views: a status page and its JSON for staff, and a health endpoint for
load balancers, compose health checks and monitors."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from league.accounts.services import token_authenticate
from league.ops.selectors import database_ok, platform_status


def _caller(request: HttpRequest) -> object:
    """The session's user, or a staff member's API token's (monitors have no session)."""
    header = request.headers.get("Authorization", "")
    if not request.user.is_authenticated and header.startswith("Bearer "):
        token = token_authenticate(header.removeprefix("Bearer ").strip())
        if token is not None:
            return token.user
    return request.user


def staff_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Anonymous visitors go to the log-in page (JSON callers get 403); users who are not
    staff get 403: failure details name hosts, paths and bots' owners."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        user = _caller(request)
        if user.is_authenticated and user.is_staff:
            return view(request, *args, **kwargs)
        if not user.is_authenticated and not request.path.endswith(".json"):
            return redirect_to_login(request.get_full_path())
        return HttpResponse("Staff only.\n", status=403, content_type="text/plain")

    return wrapped


@staff_only
def status_page(request: HttpRequest) -> HttpResponse:
    return render(request, "ops/status.html", {"status": platform_status()})


@staff_only
def status_json(request: HttpRequest) -> JsonResponse:
    return JsonResponse(platform_status().to_json())


def health(request: HttpRequest) -> JsonResponse:
    """200 while the site can serve (its database answers), 503 otherwise. The body says
    whether the rest is well: ``degraded`` when no worker is alive or the broker is away.
    Only aggregate numbers, as the home page shows them to anyone."""
    if not database_ok():
        return JsonResponse({"status": "down", "database": "unreachable"}, status=503)
    status = platform_status(with_failures=False)
    broker = "unreachable" if status.broker_waiting is None else "ok"
    healthy = status.workers_alive > 0 and broker == "ok"
    return JsonResponse({
        "status": "ok" if healthy else "degraded", "database": "ok", "broker": broker,
        "workers_alive": status.workers_alive, "busy": status.busy, "queued": status.queued,
        "oldest_queued_seconds": status.oldest_queued_seconds,
        "matches_per_minute": status.matches_per_minute})
