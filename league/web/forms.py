"""The upload form: a file (a single source or a zip), the game, and the bot's name."""

from __future__ import annotations

from django import forms

from league.bots.models import game_choices
from league.bots.uploads import UPLOAD_HELP
from league.text import one_line


def _game_or_blank() -> list[tuple[str, str]]:
    # no game picked for the uploader: a bot uploaded under the first game in the list
    # by default fails its validation in that game's words (issue 38)
    return [("", "choose the game…"), *game_choices()]


class UploadForm(forms.Form):
    game = forms.ChoiceField(choices=_game_or_blank,
                             error_messages={"required": "choose the game the bot plays"})
    name = forms.CharField(max_length=40, validators=[one_line],
                           help_text="Letters, digits, '_', '.', '-'. Upload under an "
                           "existing name to add a version.")
    file = forms.FileField(help_text=f"{UPLOAD_HELP}.")
    test = forms.BooleanField(
        required=False, label="Active only if it passes a test",
        help_text="Test it against the bot's active version first (which keeps playing "
                  "meanwhile): it becomes active if it passes. Not for a first version.")


class VisibilityForm(forms.Form):
    source_public = forms.BooleanField(required=False)


class ModerationForm(forms.Form):
    action = forms.ChoiceField(choices=[("disable", "disable"), ("enable", "enable")])
    reason = forms.CharField(max_length=200, required=False, validators=[one_line])

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("action") == "disable" and not cleaned.get("reason", "").strip():
            self.add_error("reason", "say why the bot is disabled")
        return cleaned
