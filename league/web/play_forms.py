"""The form that starts a game against a bot (on a bot's page and a ladder's page): its shape
only; ``league.ladders.play.services.exhibition_create`` checks the rest."""

from __future__ import annotations

from django import forms

from league.ids import parse_id
from league.ladders.play.services import PlayError

BUILTIN = "builtin:"


class PlayForm(forms.Form):
    opponent = forms.CharField(required=False, max_length=40,
                               help_text="a bot's id, or builtin:NAME")
    game = forms.CharField(required=False, max_length=32)
    seat = forms.IntegerField(min_value=0, max_value=1, initial=0, required=False)
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**63 - 1)

    def opponent_parts(self) -> tuple[int | None, str]:
        """``(bot id, built-in name)``: one of them, or neither (a solo game)."""
        text = self.cleaned_data.get("opponent", "").strip()
        if not text:
            return None, ""
        if text.startswith(BUILTIN):
            return None, text[len(BUILTIN):]
        if (bot_id := parse_id(text)) is not None:
            return bot_id, ""
        raise PlayError(f"the opponent is a bot's id or {BUILTIN}NAME, not {text!r}")
