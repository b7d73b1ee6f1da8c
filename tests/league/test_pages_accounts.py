"""Account pages: sign-up, throttled log-in, log-out, password change, profile, API tokens."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from league.accounts.models import ApiToken
from league.accounts.services import token_authenticate, token_create
from tests.league.conftest import People


def test_signing_up_logs_you_in_with_your_display_name(client: Client, people: People) -> None:
    response = client.post("/account/signup/", {
        "username": "carol", "password1": "Tr1cky-horse-battery", "password2":
        "Tr1cky-horse-battery", "display_name": "Carol C."}, follow=True)
    assert response.redirect_chain[-1][0] == "/my/bots/"
    assert response.context["user"].username == "carol"
    assert User.objects.get(username="carol").profile.display_name == "Carol C."


def test_signing_up_from_a_games_page_leads_to_uploading_for_that_game(
        client: Client, people: People) -> None:
    assert b"/account/signup/?game=stones" in client.get("/games/stones/").content
    response = client.post("/account/signup/?game=stones", {
        "username": "carol", "password1": "Tr1cky-horse-battery", "password2":
        "Tr1cky-horse-battery"}, follow=True)
    assert response.redirect_chain[-1][0] == "/my/bots/?game=stones"
    assert response.context["form"]["game"].value() == "stones"
    # a game that is not one leads nowhere strange
    client.post("/account/logout/")
    response = client.post("/account/signup/?game=//evil.example", {
        "username": "dave", "password1": "Tr1cky-horse-battery", "password2":
        "Tr1cky-horse-battery"})
    assert response["Location"] == "/my/bots/"


def test_a_sign_up_with_a_weak_password_says_why(client: Client, people: People) -> None:
    response = client.post("/account/signup/", {
        "username": "carol", "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert b"too short" in response.content
    assert not User.objects.filter(username="carol").exists()


def test_log_in_and_log_out(client: Client, people: People) -> None:
    response = client.post("/account/login/", {"username": "alice",
                                               "password": people.password})
    assert response.status_code == 302 and response["Location"] == "/my/bots/"
    assert client.get("/my/bots/").status_code == 200
    assert client.get("/account/logout/").status_code == 405  # log-out is a POST (CSRF)
    client.post("/account/logout/")
    assert client.get("/my/bots/").status_code == 302


def test_log_in_is_throttled_after_five_failures_even_with_the_right_password(
        client: Client, people: People) -> None:
    for _ in range(5):
        response = client.post("/account/login/", {"username": "alice", "password": "nope"})
        assert b"Please enter a correct username" in response.content
    response = client.post("/account/login/", {"username": "alice",
                                               "password": people.password})
    assert response.status_code == 200
    assert b"Too many failed log-ins" in response.content
    assert "_auth_user_id" not in client.session
    # Another name from the same address, and the same name from elsewhere, still log in.
    assert client.post("/account/login/", {"username": "bob",
                                           "password": people.password}).status_code == 302
    elsewhere = Client(REMOTE_ADDR="10.0.0.9")
    assert elsewhere.post("/account/login/", {"username": "alice",
                                              "password": people.password}).status_code == 302


def test_changing_the_password(client: Client, people: People) -> None:
    client.force_login(people.alice)
    response = client.post("/account/password/", {
        "old_password": people.password, "new_password1": "An0ther-long-secret",
        "new_password2": "An0ther-long-secret"})
    assert response["Location"] == "/account/password/done/"
    people.alice.refresh_from_db()
    assert people.alice.check_password("An0ther-long-secret")


def test_the_profile_keeps_a_display_name_shown_on_the_users_page(
        client: Client, people: People) -> None:
    client.force_login(people.alice)
    client.post("/account/profile/", {"display_name": "Alice Liddell"})
    assert b"Alice Liddell" in Client().get("/u/alice/").content


def test_a_new_token_is_shown_once_then_only_its_prefix(client: Client, people: People
                                                       ) -> None:
    client.force_login(people.alice)
    response = client.post("/account/tokens/", {"name": "laptop"})
    assert response["Cache-Control"] == "no-store"
    raw = response.context["created"][1]
    assert raw.encode() in response.content
    assert token_authenticate(raw).user == people.alice
    again = client.get("/account/tokens/")
    assert raw.encode() not in again.content
    assert b"laptop" in again.content and ApiToken.objects.get().prefix.encode() in again.content


def test_tokens_are_named_uniquely_and_the_refusal_says_so(client: Client, people: People
                                                          ) -> None:
    client.force_login(people.alice)
    client.post("/account/tokens/", {"name": "laptop"})
    response = client.post("/account/tokens/", {"name": "laptop"})
    assert b"already have a token named" in response.content
    assert response.context["created"] is None


def test_revoking_one_token_keeps_the_others(client: Client, people: People) -> None:
    laptop, laptop_raw = token_create(user=people.alice, name="laptop")
    _, ci_raw = token_create(user=people.alice, name="ci")
    client.force_login(people.alice)
    response = client.post(f"/account/tokens/{laptop.pk}/revoke/", follow=True)
    assert b"revoked" in response.content
    assert token_authenticate(laptop_raw) is None
    assert token_authenticate(ci_raw) is not None


@pytest.mark.parametrize("url", ["/my/bots/", "/account/tokens/", "/account/profile/",
                                 "/account/password/"])
def test_account_pages_send_anonymous_visitors_to_log_in(client: Client, people: People,
                                                         url: str) -> None:
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/account/login/?next=")
