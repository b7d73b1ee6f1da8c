"""The settings page's forms: one checkbox per event and channel, and the webhook's address."""

from __future__ import annotations

from typing import Any

from django import forms

from league.notifications.models import EventKind
from league.notifications.selectors import Choice
from league.notifications.targets import MAX_URL


def field_name(event: str, channel: str) -> str:
    return f"{event.replace('.', '_')}__{channel}"


class PreferencesForm(forms.Form):
    def __init__(self, *args: Any, choices: list[Choice], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for choice in choices:
            for channel in ("email", "webhook"):
                self.fields[field_name(choice.event, channel)] = forms.BooleanField(
                    required=False, initial=getattr(choice, channel), label=channel)

    def choices(self) -> dict[str, dict[str, bool]]:
        return {kind.value: {channel: bool(self.cleaned_data.get(field_name(kind, channel)))
                             for channel in ("email", "webhook")} for kind in EventKind}


class WebhookForm(forms.Form):
    url = forms.CharField(max_length=MAX_URL, label="Webhook address", widget=forms.URLInput(
        attrs={"placeholder": "https://example.org/botleague-hook"}))
