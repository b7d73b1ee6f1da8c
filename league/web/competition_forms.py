"""Forms of the competitions' pages: a new tournament, entering a bot, a challenge. They check
the shape of what was sent; the services check the rest and say what to change."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db.models import QuerySet
from django.forms.fields import InvalidJSONInput

from league.bots.models import Bot, game_choices
from league.competitions import formats
from league.competitions.recurring import EVERY_CHOICES
from league.competitions.services import (
    DEFAULT_CHALLENGE_GAMES,
    MAX_CHALLENGE_GAMES,
    MAX_ROUNDS,
    MAX_SERIES_GAMES,
)
from league.ids import parse_id
from league.nesting import nesting_problem
from league.text import multi_line, one_line
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
        # data-utc: tournament-form.js shows it in the reader's time and sends UTC back
        super().__init__(attrs={"step": 1, "data-utc": "", **(attrs or {})},
                         format="%Y-%m-%dT%H:%M:%S")


class NestingCappedJSONField(forms.JSONField):
    """Django's JSON field, its text's nesting checked before ``json`` parses it (on
    cleaning, and again when the form is shown with what was sent)."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and (problem := nesting_problem(value)):
            raise forms.ValidationError(problem, code="too_deep")
        try:
            return super().to_python(value)
        except ValueError:  # json's other refusals, e.g. a number of 5,000 digits
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid",
                                        params={"value": value}) from None

    def bound_data(self, data: Any, initial: Any) -> Any:
        if isinstance(data, str) and nesting_problem(data):
            return InvalidJSONInput(data)
        try:
            return super().bound_data(data, initial)
        except ValueError:
            return InvalidJSONInput(data)


class BotChoiceField(forms.ModelChoiceField):
    """One of the user's bots by its id: ASCII digits only (``league.ids.parse_id``), so
    "٣" is no bot rather than bot 3."""

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and parse_id(value) is None:
            raise forms.ValidationError(self.error_messages["invalid_choice"],
                                        code="invalid_choice")
        return super().to_python(value)


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=80, validators=[one_line])
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
    open_to_league_bots = forms.BooleanField(
        required=False, label="Open to the league's bots",
        help_text="At the start the league fills the places left with the demo's bots of the "
        "game and bots whose owners take challenges, the strongest first.")
    field_limit = forms.IntegerField(label="Field limit", min_value=2, initial=16,
                                     help_text="The most entries the tournament takes.")
    registration_closes = forms.DateTimeField(
        widget=UTCDateTimeInput(), label="Registration closes (UTC)",
        help_text="Registration opens now.")
    starts_at = forms.DateTimeField(widget=UTCDateTimeInput(), label="Starts (UTC)",
                                    help_text="At or after registration closes; within 60 "
                                    "days.")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False,
                                  max_length=4000, validators=[multi_line])
    repeat = forms.ChoiceField(
        required=False, label="Comes back",
        choices=[("", "No: once"), ("day", "Every day, at the same time"),
                 ("week", "Every week, the same day and time")],
        help_text="Each edition a copy of this one, listed as soon as the one before starts.")
    min_rated_games = forms.IntegerField(
        required=False, min_value=0, max_value=10**6, label="Rated games at least",
        help_text="Who may enter: bots whose playing version has this many games on the "
        "ladder.")
    rating_min = forms.FloatField(required=False, label="Ladder rating from",
                                  help_text="Who may enter: the band of the ladder's rating "
                                  "(as its board shows it); empty for no bound.")
    rating_max = forms.FloatField(required=False, label="Ladder rating to")
    allowed_owners = forms.CharField(
        required=False, max_length=2000, label="Only the bots of",
        validators=[one_line],
        help_text="User names, separated by commas or spaces; empty for anyone's bots.")
    official = forms.BooleanField(required=False, help_text="Staff: made for the whole "
                                  "league, marked as official.")
    limits = NestingCappedJSONField(
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
        if staff:
            repeat = self.fields["repeat"]
            repeat.choices = [*repeat.choices, ("hour", "Every hour (staff)")]
        else:
            del self.fields["official"]
            del self.fields["limits"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["every"] = EVERY_CHOICES.get(data.get("repeat") or "")
        names = (data.get("allowed_owners") or "").replace(",", " ").split()
        data["allowed_owners"] = names
        return data

    def clean_limits(self) -> dict[str, Any] | None:
        value = self.cleaned_data.get("limits")
        if value in (None, "", {}):
            return None
        if not isinstance(value, dict):
            raise forms.ValidationError('limits are a JSON object, e.g. {"move_time": 2.0}')
        return value


def _bots_field(field: BotChoiceField, mine: QuerySet[Bot], shown: list[Bot]) -> None:
    """Any of the user's bots is accepted (the service then says why one cannot play); the
    picker lists only those that can."""
    field.queryset = mine
    field.widget.choices = [(b.pk, b.name) for b in shown]


class EntryForm(forms.Form):
    bot = BotChoiceField(queryset=Bot.objects.none(), empty_label=None, label="Your bot")

    def __init__(self, *args: Any, bots: list[Bot], user: Any, game: str,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _bots_field(self.fields["bot"], Bot.objects.filter(owner_id=user.pk, game=game), bots)


class CancelForm(forms.Form):
    reason = forms.CharField(max_length=200, required=False, validators=[one_line])


class ChallengeForm(forms.Form):
    bot = BotChoiceField(queryset=Bot.objects.none(), empty_label=None, label="Your bot")
    games = forms.IntegerField(min_value=1, max_value=MAX_CHALLENGE_GAMES,
                               initial=DEFAULT_CHALLENGE_GAMES,
                               help_text=f"1-{MAX_CHALLENGE_GAMES}, seats alternated (an even "
                               "number gives each bot each seat as often); not rated.")

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
