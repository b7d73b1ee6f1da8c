"""Who is calling: an API token (``Authorization: Bearer blt_...``) or the site's session."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from league.accounts.models import ApiToken
from league.accounts.services import token_authenticate

TOKENS_PAGE = "/account/tokens/"


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``request.auth`` is the ``ApiToken``; a wrong or revoked token is a 401, never anonymous."""

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = authentication.get_authorization_header(request).decode(errors="replace")
        if not header:
            return None
        scheme, _, raw = header.partition(" ")
        if scheme.lower() != self.keyword.lower():
            return None
        raw = raw.strip()
        if not raw:
            raise exceptions.AuthenticationFailed(
                "the Authorization header has no token after 'Bearer'; send "
                "'Authorization: Bearer blt_...'")
        token = token_authenticate(raw)
        if token is None:
            raise exceptions.AuthenticationFailed(
                f"this API token is not valid or was revoked; create a new one at {TOKENS_PAGE}")
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "league.api.authentication.BearerTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer",
                "description": f"An API token from {TOKENS_PAGE} (blt_...)."}
