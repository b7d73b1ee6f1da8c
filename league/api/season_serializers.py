"""The API's seasons: a ladder's list, one season with its table, a new one (staff)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.ladders.models import FINALS_FORMATS, FinalsRelease, Season, SeasonPlace
from league.text import one_line


class SeasonSerializer(serializers.ModelSerializer):
    ladder = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    title = serializers.CharField(read_only=True, help_text="its name, or 'Season N'")
    repeat_every = serializers.SerializerMethodField(
        help_text="seconds: when it ends the next one of this length follows; null: it does "
                  "not repeat")
    carry = serializers.FloatField(
        help_text="fraction of each rating's distance from the start value that its start "
                  "kept (mu; sigma starts at the start value)")

    finals_size = serializers.IntegerField(
        help_text="the top N of its table play finals at its end; 0: no finals")
    finals_format = serializers.CharField(help_text="the finals' tournament format")
    freeze_for_finals = serializers.BooleanField(
        help_text="while its finals run, new versions of their bots wait until they end")
    finals_release = serializers.ChoiceField(
        choices=FinalsRelease.choices,
        help_text="at_once: the finals' results show as played; staff: when staff release "
                  "them")

    class Meta:
        model = Season
        fields = ["id", "ladder", "number", "name", "title", "state", "starts_at", "ends_at",
                  "carry", "repeat_every", "started_at", "ended_at", "finals_size",
                  "finals_format", "freeze_for_finals", "finals_release"]

    def get_repeat_every(self, season: Season) -> float | None:
        return season.repeat_every.total_seconds() if season.repeat_every else None


class SeasonPlaceSerializer(serializers.ModelSerializer):
    bot_id = serializers.IntegerField()
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    version = serializers.IntegerField(source="version.number")
    rating = serializers.FloatField(allow_null=True, help_text="mu - 3 sigma (rated ladders)")
    mean = serializers.FloatField(allow_null=True, help_text="mean score (scored ladders)")
    ci = serializers.FloatField(allow_null=True,
                                help_text="the mean's 95 % interval half-width")

    class Meta:
        model = SeasonPlace
        fields = ["place", "bot_id", "bot", "owner", "version", "games", "wins", "losses",
                  "draws", "mu", "sigma", "rating", "mean", "ci", "provisional"]


class SeasonFinalsSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the tournament: /api/tournaments/{id}/")
    name = serializers.CharField()
    state = serializers.CharField(help_text="the tournament's state")
    results_held = serializers.BooleanField(
        help_text="its results are shown to staff only until staff release them")


class SeasonDetailSerializer(SeasonSerializer):
    table = serializers.SerializerMethodField(
        help_text="an ended season's final places, first first (empty until it ends)")
    finals = serializers.SerializerMethodField(
        help_text="its finals' tournament once the league has made it (a beat after the "
                  "end); null before, or with no finals")

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "table", "finals"]

    @extend_schema_field(SeasonFinalsSerializer(allow_null=True))
    def get_finals(self, season: Season) -> dict[str, Any] | None:
        finals = self.context.get("finals")
        return None if finals is None else SeasonFinalsSerializer(finals).data

    @extend_schema_field(SeasonPlaceSerializer(many=True))
    def get_table(self, season: Season) -> list[dict[str, Any]]:
        return SeasonPlaceSerializer(self.context["table"], many=True).data


class BotSeasonSerializer(serializers.ModelSerializer):
    season = SeasonSerializer()
    of = serializers.IntegerField(help_text="places in that season's table")
    version = serializers.IntegerField(source="version.number")

    class Meta:
        model = SeasonPlace
        fields = ["season", "place", "of", "version", "games", "wins", "losses", "draws",
                  "rating", "mean", "provisional"]


class SeasonCreateSerializer(serializers.Serializer):
    starts_at = serializers.DateTimeField(required=False, help_text="default: now")
    ends_at = serializers.DateTimeField(required=False, help_text="or give a length")
    length = serializers.IntegerField(required=False, min_value=60, max_value=366 * 86400,
                                      help_text="seconds, instead of ends_at")
    name = serializers.CharField(required=False, default="", allow_blank=True,
                                 max_length=80, validators=[one_line])
    carry = serializers.FloatField(required=False, default=0.0, min_value=0.0, max_value=1.0)
    repeat = serializers.BooleanField(required=False, default=False,
                                      help_text="when it ends, the next of the same length "
                                                "follows")
    finals_size = serializers.IntegerField(required=False, default=0, min_value=0,
                                           max_value=64, help_text="the top N of its table "
                                           "play finals at its end; 0: no finals")
    finals_format = serializers.ChoiceField(choices=FINALS_FORMATS, required=False,
                                            default="", allow_blank=True,
                                            help_text="the finals' tournament format")
    freeze_for_finals = serializers.BooleanField(
        required=False, default=False,
        help_text="while the finals run, new versions of their bots wait until they end")
    finals_release = serializers.ChoiceField(
        choices=FinalsRelease.choices, required=False, default=FinalsRelease.AT_ONCE,
        help_text="at_once, or staff: the finals' results are shown when staff release them")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("ends_at" in data) == ("length" in data):
            raise serializers.ValidationError("give ends_at or length (one of them)")
        if "length" in data:
            data["length"] = timedelta(seconds=data["length"])
        return data
