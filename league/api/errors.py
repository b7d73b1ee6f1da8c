"""Every error under /api/ is JSON with a ``detail`` a person can act on."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from league.api.authentication import TOKENS_PAGE
from league.competitions.errors import CompetitionError
from league.ladders.seasons import SeasonError
from league.rate_limits import RateLimited
from league.versiontests.services import VersionTestError

log = logging.getLogger(__name__)


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request is too large"
    default_code = "too_large"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge("the request's fields are over 1 MiB; send the bot as the file "
                              "field of a multipart upload")
    elif isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        exc = exceptions.ParseError(f"{exc}; send one file and the fields game and name")
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "not found; check the id or the address")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, exceptions.NotAuthenticated):
        header = getattr(exc, "auth_header", None)
        exc = exceptions.NotAuthenticated(
            "sign in on the site, or send 'Authorization: Bearer <token>' with an API token "
            f"from {TOKENS_PAGE}")
        exc.auth_header = header
    elif isinstance(exc, (CompetitionError, SeasonError, VersionTestError)):
        # refused with nothing written: what to change
        exc = exceptions.ValidationError(str(exc))
    elif isinstance(exc, RateLimited):
        return Response({"detail": str(exc)}, status=429,
                        headers={"Retry-After": str(exc.wait)})
    response = drf_exception_handler(exc, context)
    if response is None:
        log.error("API error on %s", context["request"].path, exc_info=exc)
        return Response({"detail": "the league failed to answer this request; it has been "
                                   "logged for the staff, try again later"}, status=500)
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"detail": _validation_text(exc.detail), "errors": exc.detail}
    elif not isinstance(response.data, dict) or "detail" not in response.data:
        response.data = {"detail": str(response.data)}
    return response


def _validation_text(detail: Any, field: str = "") -> str:
    """``{"game": ["This field is required."]}`` → ``game: This field is required.``"""
    if isinstance(detail, dict):
        return "; ".join(_validation_text(v, k if not field else f"{field}.{k}")
                         for k, v in detail.items())
    if isinstance(detail, list):
        return "; ".join(_validation_text(v, field) for v in detail)
    text = str(detail)
    return f"{field}: {text}" if field and field != "non_field_errors" else text


@csrf_exempt  # it changes nothing: a write to no endpoint is a JSON 404, not a CSRF page
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """An address under /api/ that names no endpoint."""
    return JsonResponse({"detail": f"no API endpoint at {request.path}; the list of "
                                   "endpoints is at /api/docs/"}, status=404)
