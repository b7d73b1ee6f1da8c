"""Account forms: the login form refuses while its throttle is closed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from league.accounts.throttle import (
    MAX_FAILURES,
    WINDOW_SECONDS,
    login_blocked,
    login_failed,
    login_succeeded,
)


class ThrottledLoginForm(AuthenticationForm):
    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        address = self.request.META.get("REMOTE_ADDR", "") if self.request else ""
        if login_blocked(username=username, address=address):
            raise forms.ValidationError(
                f"Too many failed log-ins for this name from your address ({MAX_FAILURES}); "
                f"wait {WINDOW_SECONDS // 60} minutes and try again, or reset your password "
                "with staff's help.", code="throttled")
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            login_failed(username=username, address=address)
            raise
        login_succeeded(username=username, address=address)
        return cleaned


class SignupForm(UserCreationForm):
    display_name = forms.CharField(max_length=60, required=False,
                                   help_text="Shown beside your bots; optional.")


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=60, required=False)


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, help_text="Say where it is used, e.g. 'laptop'.")
