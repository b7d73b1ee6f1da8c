"""Accounts that can be recovered (issue 37, part 3): an address given at sign-up or added on
the account page, confirmed by a signed link that expires; changing it (confirmed again, the
old address told); changing the password; a password reset by mail that only goes to a
confirmed address and answers alike for a known and an unknown one; every step rate-limited.
Mail is Django's test backend (``mail.outbox``); the links in it are followed as a reader
would."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail, signing
from django.test import Client

from league.accounts.mail import confirmation_token, is_verified
from tests.league.conftest import People

PASSWORD = "Tr1cky-horse-battery"
LINK = re.compile(r"https?://testserver(/\S+)")


def link_in(message: mail.EmailMessage) -> str:
    found = LINK.search(message.body)
    assert found, message.body
    return found[1]


def sign_up(client: Client, name: str = "carol", email: str = "carol@example.org") -> User:
    response = client.post("/account/signup/", {
        "username": name, "password1": PASSWORD, "password2": PASSWORD, "email": email},
        follow=True)
    assert response.redirect_chain[-1][0] == "/my/bots/"
    return User.objects.get(username=name)


def confirmed(user: User) -> User:
    user.email = f"{user.username}@example.org"
    user.save()
    user.profile.verified_email = user.email  # type: ignore[attr-defined]
    user.profile.save()  # type: ignore[attr-defined]
    return user


@pytest.fixture
def carol(people: People) -> User:
    user = User.objects.create_user("carol", password=PASSWORD)
    from league.accounts.models import Profile

    Profile.objects.create(user=user)
    return confirmed(user)


# -- the address at sign-up, confirmed by its link ---------------------------------------------

def test_a_sign_up_with_an_address_mails_a_link_that_confirms_it(client: Client,
                                                                 people: People) -> None:
    user = sign_up(client)
    assert user.email == "carol@example.org" and not is_verified(user)
    (message,) = mail.outbox
    assert message.to == ["carol@example.org"] and "confirm" in message.subject
    page = client.get("/account/profile/")
    assert b"not confirmed" in page.content and b"Mail the link again" in page.content
    # followed logged out, as from a phone: confirmed, and nobody else is named
    response = Client().get(link_in(message))
    assert response.status_code == 200 and b"Address confirmed" in response.content
    assert is_verified(User.objects.get(pk=user.pk))
    assert b"confirmed</span>" in client.get("/account/profile/").content


def test_an_unconfirmed_account_plays_on_and_can_have_its_link_mailed_again(
        client: Client, people: People) -> None:
    sign_up(client)
    assert client.get("/my/bots/").status_code == 200
    response = client.post("/account/email/again/", follow=True)
    assert b"again" in response.content and len(mail.outbox) == 2
    response = client.get(link_in(mail.outbox[1]), follow=True)
    assert response.redirect_chain[-1][0] == "/account/profile/#email"
    assert b"is confirmed" in response.content


def test_a_sign_up_without_an_address_mails_nothing(client: Client, people: People) -> None:
    client.post("/account/signup/", {"username": "dave", "password1": PASSWORD,
                                     "password2": PASSWORD})
    assert User.objects.get(username="dave").email == "" and mail.outbox == []


def test_a_wrong_tampered_or_expired_confirmation_link_is_refused(
        client: Client, people: People, settings: Any) -> None:
    user = sign_up(client)
    good = link_in(mail.outbox[0])
    for bad in (good.replace("/confirm/", "/confirm/x"), "/account/email/confirm/nonsense/",
                good[:-8] + "/"):
        response = Client().get(bad)
        assert response.status_code == 400 and b"not one the league sent" in response.content
    forged = signing.dumps({"u": user.pk, "e": "mallory@example.org", "f": "0" * 20},
                           salt="league.accounts.mail.confirm")
    response = Client().get(f"/account/email/confirm/{forged}/")
    assert response.status_code == 400 and b"no longer works" in response.content
    settings.PASSWORD_RESET_TIMEOUT = -1  # every link older than it: expired, without waiting
    response = Client().get(good)
    assert response.status_code == 400 and b"expired" in response.content
    assert not is_verified(User.objects.get(pk=user.pk))


def test_a_link_dies_with_a_password_changed_since(client: Client, people: People) -> None:
    user = sign_up(client)
    user.set_password("Another-l0ng-secret")
    user.save()
    response = Client().get(link_in(mail.outbox[0]))
    assert response.status_code == 400 and b"no longer works" in response.content


# -- adding and changing the address on the account page ---------------------------------------

def test_an_existing_user_without_an_address_adds_one(client: Client, people: People) -> None:
    client.force_login(people.alice)
    page = client.get("/account/profile/")
    assert b"No address yet" in page.content and b"Add address" in page.content
    response = client.post("/account/email/", {"email": "alice@example.org",
                                               "password": people.password}, follow=True)
    assert b"We mailed a link to alice@example.org" in response.content
    (message,) = mail.outbox
    assert message.to == ["alice@example.org"]
    client.get(link_in(message))
    assert is_verified(User.objects.get(username="alice"))


def test_adding_an_address_wants_the_password(client: Client, people: People) -> None:
    client.force_login(people.alice)
    response = client.post("/account/email/", {"email": "alice@example.org",
                                               "password": "wrong"})
    assert response.status_code == 200 and b"That is not your password" in response.content
    assert mail.outbox == [] and User.objects.get(username="alice").email == ""


def test_changing_a_confirmed_address_keeps_it_until_the_new_one_is_confirmed_and_tells_it(
        client: Client, carol: User) -> None:
    client.force_login(carol)
    response = client.post("/account/email/", {"email": "carol@new.example",
                                               "password": PASSWORD}, follow=True)
    assert b"stays carol@example.org" in response.content
    link, notice = mail.outbox
    assert link.to == ["carol@new.example"] and notice.to == ["carol@example.org"]
    assert "carol@new.example" in notice.body and "being changed" in notice.subject
    carol.refresh_from_db()
    assert carol.email == "carol@example.org" and is_verified(carol)  # not yet
    client.get(link_in(link))
    carol.refresh_from_db()
    assert carol.email == "carol@new.example" and is_verified(carol)
    changed = mail.outbox[2]
    assert changed.to == ["carol@example.org"] and "was changed" in changed.subject
    # the link works once: the address it was made against has changed
    assert Client().get(link_in(link)).status_code == 400


def test_the_address_is_never_shown_to_others(client: Client, carol: User) -> None:
    assert b"carol@example.org" not in Client().get("/u/carol/").content


# -- password reset -----------------------------------------------------------------------------

def reset_page(client: Client, email: str) -> tuple[int, str]:
    response = client.post("/account/password/reset/", {"email": email}, follow=True)
    return response.status_code, response.content.decode()


def test_a_reset_link_leads_to_a_new_password_that_logs_in(client: Client, carol: User) -> None:
    assert b"Forgot your password?" in client.get("/account/login/").content
    status, _ = reset_page(client, "Carol@Example.org")
    assert status == 200
    (message,) = mail.outbox
    assert message.to == ["carol@example.org"] and "carol" in message.body
    form = client.get(link_in(message), follow=True)
    assert b"new_password1" in form.content
    done = client.post(form.redirect_chain[-1][0], {
        "new_password1": "Brand-new-secret-77", "new_password2": "Brand-new-secret-77"},
        follow=True)
    assert b"Password reset" in done.content
    assert Client().login(username="carol", password="Brand-new-secret-77")
    assert not Client().login(username="carol", password=PASSWORD)
    # the link was for one use; the address is told that the password changed
    again = client.get(link_in(message), follow=True)
    assert b"does not work" in again.content
    assert "password was changed" in mail.outbox[-1].subject


def test_a_wrong_reset_token_is_refused(client: Client, carol: User) -> None:
    reset_page(client, "carol@example.org")
    good = link_in(mail.outbox[0])
    bad = good.rstrip("/")[:-3] + "abc/"
    response = client.get(bad, follow=True)
    assert b"does not work" in response.content and b"new_password1" not in response.content


def test_an_expired_reset_token_is_refused(client: Client, carol: User,
                                           settings: Any) -> None:
    reset_page(client, "carol@example.org")
    settings.PASSWORD_RESET_TIMEOUT = -1  # every link older than it: expired, without waiting
    response = client.get(link_in(mail.outbox[0]), follow=True)
    assert b"does not work" in response.content and b"new_password1" not in response.content


def test_a_reset_answers_alike_for_a_known_an_unknown_and_an_unconfirmed_address(
        client: Client, carol: User) -> None:
    User.objects.create_user("eve", email="eve@example.org", password=PASSWORD)  # unconfirmed
    known = reset_page(client, "carol@example.org")
    unknown = reset_page(client, "nobody@example.org")
    unconfirmed = reset_page(client, "eve@example.org")

    def scrub(page: tuple[int, str]) -> tuple[int, str]:
        return page[0], re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page[1])

    assert scrub(known) == scrub(unknown) == scrub(unconfirmed)
    assert [m.to for m in mail.outbox] == [["carol@example.org"]]  # a confirmed one only


# -- rate limits ----------------------------------------------------------------------------------

def test_resets_are_limited_per_recipient_and_per_client_address(
        client: Client, carol: User, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "mail": "2/hour", "reset": "3/hour"}
    for _ in range(2):
        assert reset_page(client, "carol@example.org")[0] == 200
    status, page = reset_page(client, "carol@example.org")
    assert status == 429 and "Too many mails sent to that e-mail address" in page
    # an unknown address is refused alike: the limit says nothing of who has an account
    other = Client(REMOTE_ADDR="10.0.0.8")
    for _ in range(2):
        assert reset_page(other, "nobody@example.org")[0] == 200
    unknown_status, unknown_page = reset_page(other, "nobody@example.org")
    assert unknown_status == 429 and "Too many mails sent to that e-mail address" in unknown_page
    assert len(mail.outbox) == 2
    # the first client has asked 3 times, its share: refused for any address now
    status, page = reset_page(client, "another@example.org")
    assert status == 429 and "Too many password resets asked for from this address" in page


def test_address_changes_are_limited_per_account(client: Client, carol: User,
                                                 settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "email": "2/hour"}
    client.force_login(carol)
    for i in range(2):
        client.post("/account/email/", {"email": f"c{i}@new.example", "password": "wrong"})
    response = client.post("/account/email/", {"email": "c@new.example",
                                               "password": PASSWORD})
    assert response.status_code == 429
    assert b"Too many e-mail changes for this account" in response.content
    assert mail.outbox == []


def test_password_changes_are_limited_per_account(client: Client, carol: User,
                                                  settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "password": "2/hour"}
    client.force_login(carol)
    for _ in range(2):
        response = client.post("/account/password/", {
            "old_password": "wrong", "new_password1": "An0ther-long-secret",
            "new_password2": "An0ther-long-secret"})
        assert b"Your old password was entered incorrectly" in response.content
    response = client.post("/account/password/", {
        "old_password": PASSWORD, "new_password1": "An0ther-long-secret",
        "new_password2": "An0ther-long-secret"})
    assert response.status_code == 429
    assert b"Too many password changes tried for this account" in response.content
    carol.refresh_from_db()
    assert carol.check_password(PASSWORD)


def test_a_password_change_wants_the_old_one_and_tells_the_address(
        client: Client, carol: User) -> None:
    client.force_login(carol)
    response = client.post("/account/password/", {
        "old_password": PASSWORD, "new_password1": "An0ther-long-secret",
        "new_password2": "An0ther-long-secret"})
    assert response["Location"] == "/account/password/done/"
    assert [m.to for m in mail.outbox] == [["carol@example.org"]]
    assert "password was changed" in mail.outbox[0].subject


def test_confirmation_tokens_name_their_address(carol: User) -> None:
    data = signing.loads(confirmation_token(carol, "x@example.org"),
                         salt="league.accounts.mail.confirm")
    assert data["e"] == "x@example.org" and data["u"] == carol.pk
