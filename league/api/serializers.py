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
from league.ladders.boards import NOVICE_GAMES
from league.ladders.models import Ladder, Match, Participant
from league.ladders.ratings import PROVISIONAL_SIGMA
from league.ladders.reasons import reason_words
from league.ladders.replays import withheld
from league.text import one_line


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
    provisional = serializers.BooleanField(help_text=(
        "its rank is not yet to be trusted: sigma above the league's threshold "
        f"(LEAGUE_PROVISIONAL_SIGMA, {PROVISIONAL_SIGMA:.2f} by default: openskill's beta / 2) "
        "on a rated "
        "ladder, fewer seeds played than the ladder has on a scored one"))
    placing_games = serializers.IntegerField(
        source="placing", allow_null=True,
        help_text=f"games played of its placement ({NOVICE_GAMES} on a rated ladder) while "
                  "it still places; null once placed, and on scored ladders")
    rank_range = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, allow_null=True,
        help_text="a provisional rated version's likely ranks, [best, worst]: those its "
                  "mu +- 2 sigma would take among the others' mu; null when not provisional")


class VersionSerializer(serializers.ModelSerializer):
    bot_id = serializers.IntegerField(read_only=True)
    bot = serializers.CharField(source="bot.name", read_only=True)
    game = serializers.CharField(source="bot.game", read_only=True)
    log = serializers.SerializerMethodField(
        help_text="the validation match's log; null unless you own the bot or are staff")
    test_first = serializers.SerializerMethodField(help_text=(
        "uploaded to become active only if it passes a version test (status testing while "
        "it runs)"))
    test = serializers.SerializerMethodField(help_text=(
        "the id of the version test that decides it (an upload with a test, once started); "
        "null unless you own the bot or are staff"))

    class Meta:
        model = BotVersion
        fields = ["id", "bot_id", "bot", "game", "number", "status", "reason", "log",
                  "language", "entry", "filename", "size", "sha256", "created_at",
                  "validated_at", "test_first", "test"]

    @extend_schema_field(serializers.BooleanField())
    def get_test_first(self, version: BotVersion) -> bool:
        return version.test_request is not None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_test(self, version: BotVersion) -> int | None:
        if version.test_request is None or not owner_or_staff(_viewer(self), version.bot):
            return None
        return version.test_request.get("test")

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
    name = serializers.CharField(max_length=40, validators=[one_line],
                                 help_text="the bot's name; a new name makes "
                                                          "a new bot, yours gets a new version")
    test = serializers.BooleanField(default=False, help_text=(
        "become active only if it passes a version test against the bot's active version "
        "(which keeps playing meanwhile); refused for a bot with no active version"))
    test_elo0 = serializers.FloatField(default=0.0, min_value=-1000, max_value=1000,
                                       help_text="with test: H0, in normalised Elo")
    test_elo1 = serializers.FloatField(default=50.0, min_value=-1000, max_value=1000,
                                       help_text="with test: H1, in normalised Elo")
    test_alpha = serializers.FloatField(default=0.05, help_text="with test: α")
    test_beta = serializers.FloatField(default=0.05, help_text="with test: β")
    test_max_games = serializers.IntegerField(required=False, min_value=2, help_text=(
        "with test: the cap on its games (default: the league's cap)"))


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
    reason_text = serializers.SerializerMethodField(
        help_text="how it ended in words, for people (reason is the code): 'both players "
                  "passed', 'out of time'")
    seed = serializers.SerializerMethodField(
        help_text="null while a person plays a game of hidden information in it (the seed "
                  "decides what is hidden)")

    class Meta:
        model = Match
        fields = ["id", "ladder", "game", "kind", "status", "seed", "attempts", "reason",
                  "reason_text", "detail", "moves", "duration", "result", "created_at",
                  "started_at", "finished_at", "participants"]

    @extend_schema_field(serializers.CharField())
    def get_reason_text(self, match: Match) -> str:
        return reason_words(match.reason) if match.reason else ""

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
