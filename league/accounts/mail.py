"""People's e-mail addresses: confirmed by a signed link, changed, and the mails about them.

A user's address is ``User.email``; it is *verified* while it equals their profile's
``verified_email`` (``is_verified``). A confirmation link is signed (``django.core.signing``)
and carries the user, the address, and a fingerprint of the account's password and current
address: it expires after ``PASSWORD_RESET_TIMEOUT`` (``LEAGUE_EMAIL_LINK_HOURS``), and a
password changed or an address changed since makes it worthless.

Changing a verified address keeps the old one until the new one is confirmed (a password reset
still reaches the old one meanwhile, and resetting the password cancels the change), and the
old address is told at once. An unverified address has no power, so it is replaced outright.

Every mail of a link counts against its recipient (``RATE_LIMITS["mail"]``), so the league
cannot be made to flood one inbox; every change or re-send counts against its account
(``RATE_LIMITS["email"]``)."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import salted_hmac

from league.accounts.models import Profile
from league.rate_limits import rate_hit

SALT = "league.accounts.mail.confirm"


class LinkError(ValueError):
    """A confirmation link that is not (or no longer) good; the message says why."""


class EmailError(ValueError):
    """An address change refused; the message says why."""


@dataclass(frozen=True)
class Sent:
    """What a change did: the address a link went to, and whether it is pending (the old,
    verified address stays until the link is followed)."""

    address: str
    pending: bool


def normalized(address: str) -> str:
    """The address as kept: stripped, its domain in lower case (the local part is the
    mailbox's own business)."""
    local, _, domain = address.strip().rpartition("@")
    return f"{local}@{domain.lower()}" if local else address.strip()


def recipient_key(address: str) -> str:
    """A counter's key for an address: hashed (user input, kept short and plain)."""
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()


def is_verified(user: User) -> bool:
    if not user.email:
        return False
    profile = Profile.objects.filter(user=user).only("verified_email").first()
    return profile is not None and profile.verified_email.lower() == user.email.lower()


def _fingerprint(user: User) -> str:
    return salted_hmac(SALT, f"{user.pk}\0{user.password}\0{user.email.lower()}",
                       algorithm="sha256").hexdigest()[:20]


def confirmation_token(user: User, address: str) -> str:
    return signing.dumps({"u": user.pk, "e": address, "f": _fingerprint(user)}, salt=SALT,
                         compress=True)


def confirm(token: str) -> tuple[User, str]:
    """The user and address a link confirms, now verified; ``LinkError`` if it is not good."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.SignatureExpired:
        raise LinkError("This link has expired; send yourself a new one from your account "
                        "page.") from None
    except signing.BadSignature:
        raise LinkError("This link is not one the league sent, or it was cut short.") from None
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=data.get("u"), is_active=True).first()
        if user is None or not hmac.compare_digest(str(data.get("f", "")),
                                                   _fingerprint(user)):
            raise LinkError("This link no longer works: the account's address or password "
                            "has changed since it was sent.")
        address = str(data["e"])
        old = user.email if is_verified(user) else ""
        if user.email != address:
            user.email = address
            user.save(update_fields=["email"])
        profile, _ = Profile.objects.get_or_create(user=user)
        profile.verified_email = address
        profile.save(update_fields=["verified_email"])
    if old and old.lower() != address.lower():
        _send(user, old, "changed", {"new": address})
    return user, address


def _link(base: str, token: str) -> str:
    return base.rstrip("/") + reverse("email-confirm", args=[token])


def _send(user: User, to: str, name: str, context: dict[str, object]) -> None:
    context = {"user": user, "hours": settings.LEAGUE_EMAIL_LINK_HOURS, **context}
    subject = render_to_string(f"accounts/mail/{name}_subject.txt", context).strip()
    body = render_to_string(f"accounts/mail/{name}.txt", context)
    send_mail(" ".join(subject.split()), body, None, [to])


def send_confirmation(user: User, address: str, base: str) -> None:
    """Mail ``address`` the link that confirms it is ``user``'s; ``base`` is the site's
    address (``https://host``). ``RateLimited`` when the address has had its share."""
    rate_hit("mail", recipient_key(address))
    _send(user, address, "confirm", {"link": _link(base, confirmation_token(user, address)),
                                     "address": address})


def email_change(user: User, address: str, password: str, base: str) -> Sent:
    """Start changing ``user``'s address to ``address`` (see the module's docstring), their
    ``password`` the proof that they ask. ``RateLimited`` past the account's or the
    recipient's share, ``EmailError`` for a wrong password (counted all the same)."""
    address = normalized(address)
    rate_hit("email", user.pk)
    if not user.check_password(password):
        raise EmailError("That is not your password.")
    if is_verified(user):
        if address.lower() == user.email.lower():
            return Sent(address, pending=False)  # nothing to do: it is verified already
        send_confirmation(user, address, base)
        _send(user, user.email, "changing", {"new": address})
        return Sent(address, pending=True)
    if user.email != address:
        user.email = address
        user.save(update_fields=["email"])
    send_confirmation(user, address, base)
    return Sent(address, pending=False)


def resend_confirmation(user: User, base: str) -> str:
    """Mail the user's unverified address its link again; the address."""
    rate_hit("email", user.pk)
    send_confirmation(user, user.email, base)
    return user.email


def password_changed(user: User) -> None:
    """Tell a verified address that the account's password changed (by the account page or a
    reset): if it was not its owner, they know at once."""
    if is_verified(user):
        _send(user, user.email, "password_changed", {})
