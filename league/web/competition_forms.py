"""Forms of the competitions' pages: a new tournament, entering a bot, a challenge. They check
the shape of what was sent; the services check the rest and say what to change."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db.models import QuerySet

from league.bots.models import Bot, game_choices
from league.competitions import formats
from league.competitions.services import MAX_CHALLENGE_GAMES, MAX_ROUNDS, MAX_SERIES_GAMES
from league.web.competition_pages import FORMAT_NAMES, solo_games

TWO_PLAYER = [formats.Format.ROUND_ROBIN, formats.Format.DOUBLE_ROUND_ROBIN,
              formats.Format.SWISS, formats.Format.SINGLE_ELIMINATION,
              formats.Format.DOUBLE_ELIMINATION]


def format_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    solo = ", ".join(title for game, title in game_choices() if game in solo_games())
    return [("Two-player games", [(f.value, FORMAT_NAMES[f]) for f in TWO_PLAYER]),
            (f"Solo games ({solo})",
             [(formats.Format.SCORED.value, FORMAT_NAMES[formats.Format.SCORED])])]


class UTCDateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs={"step": 1, **(attrs or {})}, format="%Y-%m-%dT%H:%M:%S")


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=80)
    game = forms.ChoiceField(choices=game_choices)
    format = forms.ChoiceField(choices=format_choices, help_text=(
        "Solo games (2048, Robots) play scored tournaments: every entry plays the same seeds. "
        "Two-player games play round robin, Swiss or an elimination."))
    games = forms.IntegerField(
        label="Games per series", min_value=1, max_value=MAX_SERIES_GAMES, initial=2,
        help_text="Seats alternate game by game. Scored: the seeds each entry plays a round.")
    rounds = forms.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, required=False,
        help_text="Swiss: empty for enough rounds to leave one entry unbeaten (log2 of the "
        "field). Scored: the rounds the seeds are spread over (empty: one).")
    third_place = forms.BooleanField(
        required=False, label="Play for third place",
        help_text="Single elimination: the semi-finals' losers meet once more.")
    bracket_reset = forms.BooleanField(
        required=False, initial=True, label="Bracket reset",
        help_text="Double elimination: if the losers' bracket winner wins the grand final, a "
        "second final decides.")
    field_limit = forms.IntegerField(label="Field limit", min_value=2, initial=16,
                                     help_text="The most entries the tournament takes.")
    registration_closes = forms.DateTimeField(
        widget=UTCDateTimeInput(), label="Registration closes (UTC)",
        help_text="Registration opens now.")
    starts_at = forms.DateTimeField(widget=UTCDateTimeInput(), label="Starts (UTC)",
                                    help_text="At or after registration closes; within 60 "
                                    "days.")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False,
                                  max_length=4000)
    official = forms.BooleanField(required=False, help_text="Staff: made for the whole "
                                  "league, marked as official.")
    limits = forms.JSONField(
        required=False, label="Limits (JSON)", widget=forms.Textarea(attrs={"rows": 2}),
        help_text='Staff: sandbox limits over the ladder\'s, e.g. {"move_time": 2.0}.')

    def __init__(self, *args: Any, staff: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        largest = (settings.LEAGUE_TOURNAMENT_MAX_FIELD_STAFF if staff
                   else settings.LEAGUE_TOURNAMENT_MAX_FIELD)
        limit = self.fields["field_limit"]
        limit.max_value = largest
        limit.validators.append(MaxValueValidator(largest))
        limit.widget.attrs["max"] = largest
        limit.help_text = f"The most entries the tournament takes (2-{largest})."
        if not staff:
            del self.fields["official"]
            del self.fields["limits"]

    def clean_limits(self) -> dict[str, Any] | None:
        value = self.cleaned_data.get("limits")
        if value in (None, "", {}):
            return None
        if not isinstance(value, dict):
            raise forms.ValidationError('limits are a JSON object, e.g. {"move_time": 2.0}')
        return value


def _bots_field(field: forms.ModelChoiceField, mine: QuerySet[Bot], shown: list[Bot]) -> None:
    """Any of the user's bots is accepted (the service then says why one cannot play); the
    picker lists only those that can."""
    field.queryset = mine
    field.widget.choices = [(b.pk, b.name) for b in shown]


class EntryForm(forms.Form):
    bot = forms.ModelChoiceField(queryset=Bot.objects.none(), empty_label=None,
                                 label="Your bot")

    def __init__(self, *args: Any, bots: list[Bot], user: Any, game: str,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _bots_field(self.fields["bot"], Bot.objects.filter(owner_id=user.pk, game=game), bots)


class CancelForm(forms.Form):
    reason = forms.CharField(max_length=200, required=False)


class ChallengeForm(forms.Form):
    bot = forms.ModelChoiceField(queryset=Bot.objects.none(), empty_label=None,
                                 label="Your bot")
    games = forms.IntegerField(min_value=1, max_value=MAX_CHALLENGE_GAMES, initial=3,
                               help_text=f"1-{MAX_CHALLENGE_GAMES}, seats alternated; not "
                               "rated.")

    def __init__(self, *args: Any, bots: QuerySet[Bot], user: Any, game: str,
                 builtins: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _bots_field(self.fields["bot"], Bot.objects.filter(owner_id=user.pk, game=game),
                    list(bots))
        if builtins is not None:
            self.fields["builtin"] = forms.ChoiceField(
                choices=[(b, b) for b in builtins], label="Built-in player")
            self.order_fields(["bot", "builtin", "games"])


class ChallengeableForm(forms.Form):
    accepts = forms.BooleanField(required=False)
