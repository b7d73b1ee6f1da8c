"""Request rates per client: an API token counts on its own, a signed-in session per user, an
anonymous caller per IP address. Rates are ``settings.API_THROTTLE_RATES`` (from the
environment), read on every request so a changed setting takes effect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from league.accounts.models import ApiToken

if TYPE_CHECKING:  # DRF's views import the throttles named in settings
    from rest_framework.views import APIView


def client_key(request: Request) -> str:
    if isinstance(request.auth, ApiToken):
        return f"token-{request.auth.pk}"
    return f"user-{request.user.pk}"


class _SettingsRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str:
        return settings.API_THROTTLE_RATES[self.scope]


class AnonThrottle(_SettingsRateThrottle):
    scope = "anon"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenThrottle(_SettingsRateThrottle):
    scope = "user"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": client_key(request)}


class UploadThrottle(TokenThrottle):
    scope = "upload"


class ViewerAnonThrottle(AnonThrottle):
    """The replay viewer fetches frames in ranges and polls a live match twice a second: its
    endpoints count on their own, more generous rate (``API_THROTTLE_VIEWER``)."""

    scope = "viewer"


class ViewerUserThrottle(TokenThrottle):
    scope = "viewer"
