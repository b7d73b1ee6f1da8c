"""Account forms: log-in, password reset and password change refuse while their rate limits
are closed; a reset only goes to a confirmed address."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    UserCreationForm,
)
from django.contrib.auth.models import User
from django.http import HttpRequest

from league.accounts.mail import is_verified, recipient_key
from league.rate_limits import RateLimited, client_address, rate_clear, rate_hit
from league.text import one_line


class ThrottledLoginForm(AuthenticationForm):
    """Failed log-ins count per name and address (``RATE_LIMITS["login"]``): one attacker
    cannot lock a person out from everywhere, and one address cannot try many passwords
    against a name.

    Each attempt is counted before its password is checked, in one atomic step of the shared
    store (``rate_hit``: increment and compare), and the count is cleared when the password
    was right. Reading the count first and adding to it after the check let simultaneous
    attempts all pass the read: 40 at once had 9 passwords checked against a limit of 5."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request) if self.request else ""
        # hashed: user input, and a counter's key must be short and plain
        key = hashlib.sha256(f"{username.strip().lower()}\0{address}".encode()).hexdigest()
        try:
            rate_hit("login", key)
        except RateLimited as refused:
            raise forms.ValidationError(f"{refused.sentence()[:-1]}, or ask staff to "
                                        "reset your password.", code="throttled") from None
        cleaned = super().clean()  # a wrong password raises: its hit stays counted
        rate_clear("login", key)
        return cleaned


class SignupForm(UserCreationForm):
    display_name = forms.CharField(max_length=60, required=False, validators=[one_line],
                                   help_text="Shown beside your bots; optional.")
    email = forms.EmailField(
        required=False, label="E-mail address",
        help_text="Optional, never shown to others: once you follow the link we mail to it, "
                  "a forgotten password can be reset there.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Django's own pattern refuses these too; this says it in the league's words
        self.fields["username"].validators.insert(0, one_line)


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=60, required=False, validators=[one_line])


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, validators=[one_line],
                           help_text="Say where it is used, e.g. 'laptop'.")


class EmailForm(forms.Form):
    """A new address for the account, and the password, as proof that its owner asks."""

    email = forms.EmailField(label="New e-mail address")
    password = forms.CharField(label="Your password", strip=False,
                               widget=forms.PasswordInput(attrs={
                                   "autocomplete": "current-password"}))


class VerifiedResetForm(PasswordResetForm):
    """Django's reset form, counted and confirmed: each request counts against the client's
    address (``RATE_LIMITS["reset"]``) and the address asked for (``["mail"]``) whether or
    not any account has it, so a refusal tells nothing of who has an account; the mail goes
    only to accounts whose address is confirmed. The page that follows is the same for all."""

    def __init__(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        self.fields["email"].label = "E-mail address"

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        email = cleaned.get("email")
        if email and self.request is not None:
            try:
                rate_hit("reset", client_address(self.request))
                rate_hit("mail", recipient_key(email))
            except RateLimited as refused:
                raise forms.ValidationError(refused.sentence(), code="throttled") from None
        return cleaned

    def get_users(self, email: str) -> Iterator[User]:
        return (user for user in super().get_users(email) if is_verified(user))


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's, its every try counted against the account (``RATE_LIMITS["password"]``)
    before the old password is checked: a session left open cannot be used to guess it."""

    def clean_old_password(self) -> str:
        try:
            rate_hit("password", self.user.pk)
        except RateLimited as refused:
            raise forms.ValidationError(refused.sentence(), code="throttled") from None
        return str(super().clean_old_password())
