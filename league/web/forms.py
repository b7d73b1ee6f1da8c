"""The upload form: a file (a single source or a zip), the game, and the bot's name."""

from __future__ import annotations

from django import forms

from league.bots.models import game_choices
from league.bots.uploads import UPLOAD_HELP


class UploadForm(forms.Form):
    game = forms.ChoiceField(choices=game_choices)
    name = forms.CharField(max_length=40, help_text="Letters, digits, '_', '.', '-'. "
                           "Upload under an existing name to add a version.")
    file = forms.FileField(help_text=f"{UPLOAD_HELP}.")


class VisibilityForm(forms.Form):
    source_public = forms.BooleanField(required=False)


class ModerationForm(forms.Form):
    action = forms.ChoiceField(choices=[("disable", "disable"), ("enable", "enable")])
    reason = forms.CharField(max_length=200, required=False)

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("action") == "disable" and not cleaned.get("reason", "").strip():
            self.add_error("reason", "say why the bot is disabled")
        return cleaned
