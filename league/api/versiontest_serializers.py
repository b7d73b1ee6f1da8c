"""Read and write shapes of version tests (issue 33). Reads serialize what
``league.versiontests.selectors.versiontest_summary`` computed; writes only check types and
ranges: every rule is the service's. A game is its match's id, status and the candidate's
result; the match endpoints say the rest."""

from __future__ import annotations

import math
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.api.filters import IdField
from league.versiontests.models import TestState, VersionTest
from league.versiontests.selectors import Summary


class EstimateSerializer(serializers.Serializer):
    value = serializers.FloatField()
    low = serializers.FloatField(help_text="the 95 % interval's low end")
    high = serializers.FloatField(help_text="the 95 % interval's high end")


class SideSerializer(serializers.Serializer):
    version = serializers.IntegerField(source="pk", help_text="the version's id")
    number = serializers.IntegerField()
    bot_id = serializers.IntegerField()
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")


class VersionTestSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username")
    game = serializers.CharField(source="bot.game")
    bot = serializers.CharField(source="bot.name")
    candidate = SideSerializer()
    baseline = SideSerializer()
    pairs = serializers.IntegerField(help_text="pairs of games counted")
    promotes = serializers.BooleanField(help_text=(
        "started by an upload with a test: the candidate becomes the bot's active version "
        "if the test ends h1"))
    counts = serializers.ListField(child=serializers.IntegerField(), help_text=(
        "two-player: pairs that scored the candidate 0, ½, 1, 1½ and 2 points"))

    class Meta:
        model = VersionTest
        fields = ["id", "owner", "game", "bot_id", "bot", "candidate", "baseline", "solo",
                  "elo0", "elo1", "alpha", "beta", "max_games", "public", "promotes", "state",
                  "reason",
                  "llr", "pairs", "counts", "wins", "draws", "losses", "created_at",
                  "finished_at"]


class TestGameSerializer(serializers.Serializer):
    pair = serializers.IntegerField()
    index = serializers.IntegerField(help_text="0 or 1 within its pair")
    match = serializers.IntegerField(source="match_id", allow_null=True)
    status = serializers.CharField(help_text="the match's status")
    candidate_seat = serializers.IntegerField()
    result = serializers.CharField(help_text="win, draw or loss for the candidate (solo: its "
                                             "score); else the match's status")


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _estimate(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    return {"value": _finite(value.value), "low": _finite(value.low),
            "high": _finite(value.high)}


class VersionTestDetailSerializer(VersionTestSerializer):
    """The test with what ``versiontest_summary`` made of it (the instance is the summary's
    test; the summary is in the context)."""

    lower = serializers.SerializerMethodField(help_text="LLR at or below: H0 accepted")
    upper = serializers.SerializerMethodField(help_text="LLR at or above: H1 accepted")
    history = serializers.ListField(child=serializers.FloatField(),
                                    help_text="the LLR after each pair")
    elo = serializers.SerializerMethodField(help_text=(
        "logistic Elo with its 95 % interval (two-player); solo: the mean score difference "
        "a seed"))
    nelo = serializers.SerializerMethodField(help_text="normalised Elo ± 95 % (two-player)")
    games_played = serializers.SerializerMethodField(help_text="games counted (2 a pair)")
    games_left = serializers.SerializerMethodField(help_text=(
        "a fair guess at the games still needed, from the LLR's drift so far (null: ended, "
        "or too early to say)"))
    verdict = serializers.SerializerMethodField(help_text="the verdict (or the state) in words")
    games = serializers.SerializerMethodField()

    class Meta(VersionTestSerializer.Meta):
        fields = [*VersionTestSerializer.Meta.fields, "lower", "upper", "history", "elo",
                  "nelo", "games_played", "games_left", "verdict", "games"]

    def _summary(self) -> Summary:
        return self.context["summary"]

    @extend_schema_field(serializers.FloatField())
    def get_lower(self, _: VersionTest) -> float:
        return self._summary().lower

    @extend_schema_field(serializers.FloatField())
    def get_upper(self, _: VersionTest) -> float:
        return self._summary().upper

    @extend_schema_field(EstimateSerializer(allow_null=True))
    def get_elo(self, _: VersionTest) -> dict[str, Any] | None:
        return _estimate(self._summary().estimate)

    @extend_schema_field(EstimateSerializer(allow_null=True))
    def get_nelo(self, _: VersionTest) -> dict[str, Any] | None:
        return _estimate(self._summary().nelo)

    @extend_schema_field(serializers.IntegerField())
    def get_games_played(self, _: VersionTest) -> int:
        return self._summary().games_played

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_games_left(self, _: VersionTest) -> int | None:
        return self._summary().games_left

    @extend_schema_field(serializers.CharField())
    def get_verdict(self, _: VersionTest) -> str:
        return self._summary().verdict

    @extend_schema_field(TestGameSerializer(many=True))
    def get_games(self, _: VersionTest) -> list[dict[str, Any]]:
        return TestGameSerializer(self._summary().games, many=True).data


class VersionTestCreateSerializer(serializers.Serializer):
    candidate = IdField(help_text="the id of one of your validated versions")
    baseline = IdField(required=False, allow_null=True, help_text=(
        "a version's id: another of yours, or of any bot that plays (default: the "
        "candidate's bot's active version)"))
    elo0 = serializers.FloatField(default=0.0, min_value=-1000, max_value=1000,
                                  help_text="H0, in normalised Elo")
    elo1 = serializers.FloatField(default=50.0, min_value=-1000, max_value=1000,
                                  help_text="H1, in normalised Elo (above elo0)")
    alpha = serializers.FloatField(default=0.05, help_text="chance of H1 at elo0 (0 to 0.5)")
    beta = serializers.FloatField(default=0.05, help_text="chance of H0 at elo1 (0 to 0.5)")
    max_games = serializers.IntegerField(required=False, min_value=2, help_text=(
        "the cap: the test ends undecided there (default and most: the league's cap)"))
    public = serializers.BooleanField(default=False, help_text=(
        "anyone may see it and its games (else you and staff)"))


class VersionTestUpdateSerializer(serializers.Serializer):
    public = serializers.BooleanField(help_text="anyone may see it and its games")


class VersionTestCancelSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, default="",
                                   allow_blank=True)


class VersionTestFilters(serializers.Serializer):
    mine = serializers.BooleanField(required=False, default=False,
                                    help_text="only your own tests")
    bot = IdField(required=False, help_text="a bot's id: its tests (as candidate or baseline)")
    state = serializers.ChoiceField(choices=TestState.choices, required=False)
