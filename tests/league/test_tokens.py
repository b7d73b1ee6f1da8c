"""API tokens: shown once, stored hashed, named, revocable; profiles."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from league.accounts.models import ApiToken
from league.accounts.services import (
    TokenError,
    profile_update,
    token_authenticate,
    token_create,
    token_revoke,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice")


def test_a_token_is_shown_once_and_stored_only_as_a_hash(alice: User) -> None:
    token, raw = token_create(user=alice, name="laptop")
    assert raw.startswith("blt_" + token.prefix + "_")
    stored = ApiToken.objects.get(pk=token.pk)
    assert raw not in (stored.digest, stored.prefix, stored.name)
    found = token_authenticate(raw)
    assert found is not None and found.user == alice
    assert ApiToken.objects.get(pk=token.pk).last_used_at is not None


@pytest.mark.parametrize("raw", ["", "blt_", "blt_abc", "Bearer x", "blt_deadbeef_wrong"])
def test_a_wrong_token_authenticates_nobody(alice: User, raw: str) -> None:
    token_create(user=alice, name="laptop")
    assert token_authenticate(raw) is None


def test_a_revoked_token_stops_working_and_others_keep_working(alice: User) -> None:
    laptop, laptop_raw = token_create(user=alice, name="laptop")
    _, ci_raw = token_create(user=alice, name="ci")
    token_revoke(user=alice, token_id=laptop.pk)
    assert token_authenticate(laptop_raw) is None
    assert token_authenticate(ci_raw) is not None


def test_a_user_cannot_revoke_someone_elses_token(alice: User) -> None:
    token, raw = token_create(user=alice, name="laptop")
    bob = User.objects.create_user("bob")
    with pytest.raises(TokenError):
        token_revoke(user=bob, token_id=token.pk)
    assert token_authenticate(raw) is not None


def test_token_names_are_required_and_unique_per_user(alice: User) -> None:
    token_create(user=alice, name="laptop")
    with pytest.raises(TokenError, match="already"):
        token_create(user=alice, name="laptop")
    with pytest.raises(TokenError, match="name"):
        token_create(user=alice, name="  ")


def test_a_profile_keeps_a_display_name(alice: User) -> None:
    assert profile_update(user=alice, display_name="  Alice L. ").display_name == "Alice L."
