"""Read shapes of the API. Nothing here writes: uploads and switches go through services.

Fields only the bot's owner and staff may see (a version's log, a participant's log) come out
as null for everyone else; who may see them is ``league.bots.selectors.owner_or_staff``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.bots.models import Bot, BotVersion
from league.bots.selectors import owner_or_staff
from league.bots.uploads import UPLOAD_HELP
from league.ladders.models import Ladder, Match, Participant
from league.ladders.replays import withheld


def _viewer(serializer: serializers.Serializer) -> Any:
    request = serializer.context.get("request")
    return getattr(request, "user", None)


class GameSerializer(serializers.Serializer):
    id = serializers.CharField()
    title = serializers.CharField()
    players = serializers.IntegerField()
    hidden_information = serializers.BooleanField()
    chance = serializers.BooleanField()
    scored = serializers.BooleanField()
    options = serializers.JSONField()
    ladder = serializers.CharField(allow_null=True, help_text="slug of the game's ladder")


class LadderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ladder
        fields = ["slug", "title", "game", "kind", "options", "limits", "backend", "seeds",
                  "validation_opponent", "active"]


class RankingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    bot = serializers.CharField()
    bot_id = serializers.IntegerField()
    owner = serializers.CharField()
    version = serializers.IntegerField()
    games = serializers.IntegerField()
    rating = serializers.FloatField(allow_null=True, help_text="mu - 3 sigma (rated ladders)")
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    mean = serializers.FloatField(allow_null=True, help_text="mean score (scored ladders)")
    ci = serializers.FloatField(allow_null=True, help_text="95 % interval's half-width")
    seeds = serializers.IntegerField()


class VersionSerializer(serializers.ModelSerializer):
    bot_id = serializers.IntegerField(read_only=True)
    bot = serializers.CharField(source="bot.name", read_only=True)
    game = serializers.CharField(source="bot.game", read_only=True)
    log = serializers.SerializerMethodField(
        help_text="the validation match's log; null unless you own the bot or are staff")

    class Meta:
        model = BotVersion
        fields = ["id", "bot_id", "bot", "game", "number", "status", "reason", "log",
                  "language", "entry", "filename", "size", "sha256", "created_at",
                  "validated_at"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_log(self, version: BotVersion) -> str | None:
        return version.log if owner_or_staff(_viewer(self), version.bot) else None


class ActiveVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = BotVersion
        fields = ["id", "number", "status", "language", "created_at", "validated_at"]


class BotSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    active_version = ActiveVersionSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Bot
        fields = ["id", "name", "game", "owner", "source_public", "accepts_challenges",
                  "retired",
                  "disabled", "disabled_reason", "active_version", "created_at"]


class BotChangeSerializer(serializers.Serializer):
    source_public = serializers.BooleanField(
        required=False, help_text="true: anyone may download the bot's source; false (the "
                                  "default): only you and staff. The bot itself, its matches "
                                  "and replays are public either way; its logs are yours")
    accepts_challenges = serializers.BooleanField(
        required=False, help_text="false: nobody but you may challenge it")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if not data:
            raise serializers.ValidationError("send source_public, accepts_challenges, or both")
        return data


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text=UPLOAD_HELP)
    game = serializers.CharField(max_length=32, help_text="game id, e.g. stones")
    name = serializers.CharField(max_length=40, help_text="the bot's name; a new name makes "
                                                          "a new bot, yours gets a new version")


class ParticipantSerializer(serializers.ModelSerializer):
    bot_id = serializers.SerializerMethodField()
    bot = serializers.SerializerMethodField()
    owner = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField()
    player = serializers.SerializerMethodField(help_text="a person in this seat (exhibitions)")

    class Meta:
        model = Participant
        fields = ["seat", "bot_id", "bot", "owner", "version", "builtin", "player", "outcome",
                  "score",
                  "forfeit", "forfeit_detail", "moves", "time_used", "mu_before",
                  "sigma_before", "mu_after", "sigma_after"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_bot_id(self, p: Participant) -> int | None:
        return p.version.bot_id if p.version else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_bot(self, p: Participant) -> str | None:
        return p.version.bot.name if p.version else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_owner(self, p: Participant) -> str | None:
        return p.version.bot.owner.username if p.version else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_version(self, p: Participant) -> int | None:
        return p.version.number if p.version else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_player(self, p: Participant) -> str | None:
        return p.player.username if p.player_id else None


class ParticipantDetailSerializer(ParticipantSerializer):
    log = serializers.SerializerMethodField(
        help_text="what the bot wrote on stderr; null unless you own it or are staff")

    class Meta(ParticipantSerializer.Meta):
        fields = [*ParticipantSerializer.Meta.fields, "exit", "log"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_log(self, p: Participant) -> str | None:
        if p.version is None or not owner_or_staff(_viewer(self), p.version.bot):
            return None
        return p.log


class MatchSerializer(serializers.ModelSerializer):
    ladder = serializers.CharField(source="ladder.slug", read_only=True)
    game = serializers.CharField(source="ladder.game", read_only=True)
    participants = ParticipantSerializer(many=True, read_only=True)
    seed = serializers.SerializerMethodField(
        help_text="null while a person plays a game of hidden information in it (the seed "
                  "decides what is hidden)")

    class Meta:
        model = Match
        fields = ["id", "ladder", "game", "kind", "status", "seed", "attempts", "reason",
                  "detail", "moves", "duration", "result", "created_at", "started_at",
                  "finished_at", "participants"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_seed(self, match: Match) -> int | None:
        return None if withheld(match) else match.seed


class MatchDetailSerializer(MatchSerializer):
    participants = ParticipantDetailSerializer(many=True, read_only=True)


class RatingPointSerializer(serializers.ModelSerializer):
    match = serializers.IntegerField(source="match_id")
    kind = serializers.CharField(source="match.kind")
    finished_at = serializers.DateTimeField(source="match.finished_at")
    version = serializers.IntegerField(source="version.number")
    rating = serializers.FloatField(read_only=True, allow_null=True,
                                    help_text="mu - 3 sigma after the match")

    class Meta:
        model = Participant
        fields = ["match", "kind", "finished_at", "version", "outcome", "score", "mu_before",
                  "sigma_before", "mu_after", "sigma_after", "rating"]
