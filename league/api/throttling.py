"""Request rates per client (``settings.RATE_LIMITS``, counted by ``league.rate_limits``): an
API token counts on its own, a signed-in session per user, an anonymous caller per address.
A client over its rate gets ``RateLimited``, which the API answers with a JSON 429 and a
``Retry-After``. Uploads are limited per user by the upload service itself (pages and API
share one budget, whichever token sends them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from league.accounts.models import ApiToken
from league.rate_limits import client_address, rate_hit

if TYPE_CHECKING:  # DRF's views import the throttles named in settings
    from rest_framework.views import APIView


def client_key(request: Request) -> str:
    if isinstance(request.auth, ApiToken):
        return f"token-{request.auth.pk}"
    return f"user-{request.user.pk}"


class _Throttle(BaseThrottle):
    scope = ""

    def ident(self, request: Request) -> str | None:
        raise NotImplementedError

    def allow_request(self, request: Request, view: APIView) -> bool:
        ident = self.ident(request)
        if ident is not None:
            rate_hit(self.scope, ident)  # RateLimited when over
        return True


class AnonThrottle(_Throttle):
    scope = "anon"

    def ident(self, request: Request) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return client_address(request)


class TokenThrottle(_Throttle):
    scope = "user"

    def ident(self, request: Request) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        return client_key(request)


class ViewerAnonThrottle(AnonThrottle):
    """The replay viewer fetches frames in ranges and polls a live match twice a second: its
    endpoints count on their own, more generous rate (``API_THROTTLE_VIEWER``)."""

    scope = "viewer"


class ViewerUserThrottle(TokenThrottle):
    scope = "viewer"


class PlayAnonThrottle(AnonThrottle):
    """The play page polls its game and sends a move a second on a fast 2048: its endpoints
    count on their own rate (``API_THROTTLE_PLAY``)."""

    scope = "play-api"


class PlayUserThrottle(TokenThrottle):
    scope = "play-api"
