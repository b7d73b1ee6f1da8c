"""Account forms: the login form refuses while its rate limit is closed."""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from league.rate_limits import RateLimited, client_address, rate_check, rate_clear, rate_hit


class ThrottledLoginForm(AuthenticationForm):
    """Failed log-ins count per name and address (``RATE_LIMITS["login"]``): one attacker
    cannot lock a person out from everywhere, and one address cannot try many passwords
    against a name."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request) if self.request else ""
        # hashed: user input, and a counter's key must be short and plain
        key = hashlib.sha256(f"{username.strip().lower()}\0{address}".encode()).hexdigest()
        try:
            rate_check("login", key)
        except RateLimited as refused:
            raise forms.ValidationError(f"{refused.sentence()[:-1]}, or ask staff to "
                                        "reset your password.", code="throttled") from None
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            with contextlib.suppress(RateLimited):  # the check above refuses the next one
                rate_hit("login", key)
            raise
        rate_clear("login", key)
        return cleaned


class SignupForm(UserCreationForm):
    display_name = forms.CharField(max_length=60, required=False,
                                   help_text="Shown beside your bots; optional.")


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=60, required=False)


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, help_text="Say where it is used, e.g. 'laptop'.")
