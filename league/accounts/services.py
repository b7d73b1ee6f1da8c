"""Writes on accounts: profiles and API tokens (create shows the secret once, revoke, check)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from league.accounts.models import ApiToken, Profile
from league.rate_limits import rate_hit
from league.text import text_problem

TOKEN_PREFIX = "blt_"
MAX_TOKENS = 20
TOUCH_EVERY = timedelta(minutes=1)
"""``last_used_at`` is written at most this often per token (not on every request)."""


class TokenError(ValueError):
    """A token request refused; the message says why."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def profile_update(*, user: AbstractBaseUser, display_name: str) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    profile.display_name = display_name.strip()[:60]
    profile.save(update_fields=["display_name"])
    return profile


def token_create(*, user: AbstractBaseUser, name: str) -> tuple[ApiToken, str]:
    """A new token and its secret (``blt_<prefix>_<secret>``), which is never stored.
    ``RateLimited`` past ``RATE_LIMITS["token"]`` a user: revoking and making tokens again
    must not mint fresh request budgets without end."""
    name = name.strip()
    if not name or len(name) > 60:
        raise TokenError("give the token a name of 1-60 characters (e.g. 'laptop')")
    if problem := text_problem(name):
        raise TokenError(problem)
    rate_hit("token", user.pk)
    with transaction.atomic():
        live = ApiToken.objects.select_for_update().filter(user=user, revoked_at=None)
        if live.count() >= MAX_TOKENS:
            raise TokenError(f"you have {MAX_TOKENS} tokens; revoke one first")
        if live.filter(name=name).exists():
            raise TokenError(f"you already have a token named {name!r}")
        prefix = secrets.token_hex(4)
        secret = secrets.token_urlsafe(32)
        raw = f"{TOKEN_PREFIX}{prefix}_{secret}"
        token = ApiToken.objects.create(user=user, name=name, prefix=prefix,
                                        digest=_digest(raw))
    return token, raw


def token_revoke(*, user: AbstractBaseUser, token_id: int) -> ApiToken:
    token = ApiToken.objects.filter(pk=token_id, user=user).first()
    if token is None:
        raise TokenError("no such token")
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def token_authenticate(raw: str) -> ApiToken | None:
    """The live token for ``raw``, or None; compared in constant time."""
    if not raw.startswith(TOKEN_PREFIX) or raw.count("_") < 2:
        return None
    prefix = raw[len(TOKEN_PREFIX):].split("_", 1)[0]
    token = (ApiToken.objects.select_related("user").filter(prefix=prefix, revoked_at=None)
             .first())
    if token is None or not hmac.compare_digest(token.digest, _digest(raw)):
        return None
    if not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token
