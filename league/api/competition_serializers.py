"""Read and write shapes of tournaments and challenges. Reads serialize what
``league.competitions.selectors`` computed (the table, the rounds, the bracket, a challenge's
tally); nothing here decides a result. Writes only check types and ranges: every rule is the
services'.

No log and no match detail comes out here: a game is its match's id, status and result, and
the match endpoints say the rest (filtering logs per reader)."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.api.filters import IdField
from league.bots.models import game_choices
from league.competitions import services
from league.competitions.models import (
    FORMAT_CHOICES,
    Challenge,
    Entry,
    Tournament,
    TournamentState,
)
from league.competitions.recurring import schedule_words
from league.competitions.selectors import (
    BracketView,
    ChallengePage,
    GameView,
    SeriesView,
    TournamentPage,
)
from league.text import multi_line, one_line

GAME_CHOICES = game_choices()  # the models' own choices: one enum in the schema
GAME_IDS = ", ".join(g for g, _ in GAME_CHOICES)
FORMAT_IDS = ", ".join(f for f, _ in FORMAT_CHOICES)


# -- tournaments: reads ----------------------------------------------------------------------

class RecurrenceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    every_seconds = serializers.IntegerField(help_text="between two editions' starts")
    schedule = serializers.CharField(help_text='e.g. "every day at 18:00 UTC"')
    active = serializers.BooleanField(help_text="false: stopped, no edition is made any more")
    stopped_at = serializers.DateTimeField(allow_null=True)


class TournamentSerializer(serializers.ModelSerializer):
    games_per_series = serializers.IntegerField(
        source="games", help_text="games per series, seats alternated (scored: seeds per "
                                  "round)")
    entered = serializers.IntegerField(read_only=True, help_text="entries registered now")
    created_by = serializers.CharField(source="created_by.username", read_only=True,
                                       allow_null=True,
                                       help_text="null: made by the league (a season's finals)")
    finals_of = serializers.IntegerField(
        source="finals_of_id", read_only=True, allow_null=True,
        help_text="the season (id) whose finals it is; null: not a season's finals")
    results_held = serializers.BooleanField(
        read_only=True, help_text="a season's finals whose results staff hold back: their "
                                  "standings, rounds, bracket and games are staff's only "
                                  "until released")
    note = serializers.CharField(read_only=True,
                                 help_text="why it was cancelled, or what happened on the way")

    recurrence = serializers.SerializerMethodField(help_text="its schedule, if it comes back")

    class Meta:
        model = Tournament
        fields = ["id", "name", "game", "format", "state", "games_per_series", "rounds",
                  "third_place", "bracket_reset", "field_limit", "entered",
                  "registration_opens", "registration_closes", "starts_at", "started_at",
                  "finished_at", "official", "open_to_league_bots", "description", "note",
                  "options", "limits", "created_by", "created_at", "min_rated_games",
                  "rating_min", "rating_max", "allowed_owners", "recurrence", "finals_of",
                  "results_held", "released_at"]

    @extend_schema_field(RecurrenceSerializer(allow_null=True))
    def get_recurrence(self, t: Tournament) -> dict[str, Any] | None:
        r = t.recurrence
        if r is None:
            return None
        # every edition starts at the same time of day (and weekday), so its own start says
        return {"id": r.pk, "every_seconds": int(r.every.total_seconds()),
                "schedule": schedule_words(r, t.starts_at), "active": r.active,
                "stopped_at": r.stopped_at}


class EntryRefSerializer(serializers.ModelSerializer):
    """An entry as a table row or a series names it."""

    bot_id = serializers.IntegerField()
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")

    class Meta:
        model = Entry
        fields = ["id", "bot_id", "bot", "owner", "seed"]


class EntrySerializer(EntryRefSerializer):
    tournament = serializers.IntegerField(source="tournament_id")
    version = serializers.SerializerMethodField(
        help_text="the version number that plays, frozen at the start (null before)")

    class Meta(EntryRefSerializer.Meta):
        fields = [*EntryRefSerializer.Meta.fields, "tournament", "version", "registered_at",
                  "withdrawn", "note"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_version(self, entry: Entry) -> int | None:
        return entry.version.number if entry.version_id else None


class TableRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = EntryRefSerializer()
    points = serializers.FloatField(help_text="series points (scored: the mean score)")
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    game_points = serializers.FloatField()
    buchholz = serializers.FloatField(allow_null=True, help_text="Swiss only")
    sonneborn_berger = serializers.FloatField(allow_null=True)
    played = serializers.IntegerField()
    interval = serializers.FloatField(allow_null=True,
                                      help_text="scored: the 95 % interval's half-width")
    out = serializers.BooleanField(help_text="elimination: out of the tournament")


class SeriesGameSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id", allow_null=True,
                                     help_text="null until the game is released to workers")
    status = serializers.CharField(help_text="the match's status, or waiting")
    first = serializers.SerializerMethodField(help_text="entry id in seat 0")
    second = serializers.SerializerMethodField(help_text="entry id in seat 1 (null: solo)")
    result = serializers.CharField(help_text="1-0, 0-1, ½-½, a score, or where it stands")

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_first(self, game: GameView) -> int | None:
        return game.first.pk if game.first else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_second(self, game: GameView) -> int | None:
        return game.second.pk if game.second else None


class SeriesSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="its name in the round or bracket, e.g. W1.2")
    round = serializers.IntegerField()
    kind = serializers.CharField(help_text="series, bye or solo")
    first = EntryRefSerializer()
    second = EntryRefSerializer(allow_null=True)
    score = serializers.CharField(help_text="game points, first : second (solo: the mean)")
    winner = serializers.SerializerMethodField(help_text="entry id; null: drawn or not done")
    decided_by = serializers.CharField(help_text="how a finished series was decided")
    done = serializers.BooleanField()
    games = SeriesGameSerializer(many=True)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_winner(self, series: SeriesView) -> int | None:
        return series.winner.pk if series.winner else None


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    series = SeriesSerializer(many=True)

    def to_representation(self, round_: tuple[int, list[SeriesView]]) -> dict[str, Any]:
        number, series = round_
        return {"number": number, "series": SeriesSerializer(series, many=True).data}


class BracketSideSerializer(serializers.Serializer):
    entry = EntryRefSerializer(allow_null=True, required=False)
    label = serializers.CharField(allow_null=True, required=False,
                                  help_text="who will sit here (winner of W1.2, seed 3, bye)")
    won = serializers.BooleanField()

    def to_representation(self, side: dict[str, Any]) -> dict[str, Any]:
        entry = side.get("entry")
        return {"entry": EntryRefSerializer(entry).data if entry is not None else None,
                "label": side.get("label"), "won": bool(side.get("won"))}


class BracketNodeSerializer(serializers.Serializer):
    key = serializers.CharField()
    sides = BracketSideSerializer(many=True)
    played = serializers.BooleanField()
    decided = serializers.BooleanField()
    reset = serializers.BooleanField(help_text="the grand final played again after a reset")


class BracketSectionSerializer(serializers.Serializer):
    title = serializers.CharField()
    columns = serializers.ListField(child=BracketNodeSerializer(many=True),
                                    help_text="rounds, left to right")

    def to_representation(self, section: tuple[str, list[list[dict[str, Any]]]]
                          ) -> dict[str, Any]:
        title, columns = section
        return {"title": title,
                "columns": [BracketNodeSerializer(c, many=True).data for c in columns]}


class BracketSerializer(serializers.Serializer):
    sections = BracketSectionSerializer(many=True)

    def to_representation(self, bracket: BracketView) -> dict[str, Any]:
        return {"sections": BracketSectionSerializer(bracket.sections, many=True).data}


class TournamentDetailSerializer(TournamentSerializer):
    """The tournament with what ``selectors.tournament_page`` made of it (in context)."""

    entries = serializers.SerializerMethodField(help_text="the field, best seed first")
    table = serializers.SerializerMethodField(help_text="the standings, first place first")
    rounds_paired = serializers.SerializerMethodField(
        help_text="the rounds paired so far, each with its series (``rounds`` is how many "
                  "a Swiss or scored tournament plays)")
    bracket = serializers.SerializerMethodField(help_text="elimination formats, once started")
    rules = serializers.SerializerMethodField(help_text="the format's rules in plain words")
    series_rule = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "entries", "table", "rounds_paired", "bracket",
                  "rules", "series_rule"]

    def _page(self) -> TournamentPage:
        return self.context["page"]

    @extend_schema_field(EntrySerializer(many=True))
    def get_entries(self, t: Tournament) -> list[dict[str, Any]]:
        return EntrySerializer(self._page().entries, many=True).data

    @extend_schema_field(TableRowSerializer(many=True))
    def get_table(self, t: Tournament) -> list[dict[str, Any]]:
        return TableRowSerializer(self._page().table, many=True).data

    @extend_schema_field(RoundSerializer(many=True))
    def get_rounds_paired(self, t: Tournament) -> list[dict[str, Any]]:
        return RoundSerializer(self._page().rounds, many=True).data

    @extend_schema_field(BracketSerializer(allow_null=True))
    def get_bracket(self, t: Tournament) -> dict[str, Any] | None:
        bracket = self._page().bracket
        return BracketSerializer(bracket).data if bracket is not None else None

    @extend_schema_field(serializers.CharField())
    def get_rules(self, t: Tournament) -> str:
        return self._page().rules

    @extend_schema_field(serializers.CharField())
    def get_series_rule(self, t: Tournament) -> str:
        return self._page().series_rule


# -- tournaments: writes ---------------------------------------------------------------------

def _finite(value: Any, field: str) -> None:
    """JSON may spell 1e400, which Python reads as infinity and PostgreSQL cannot store."""
    if isinstance(value, float) and not math.isfinite(value):
        raise serializers.ValidationError(f"{field} holds a number too large to store")
    for inner in (value.values() if isinstance(value, dict) else
                  value if isinstance(value, list) else ()):
        _finite(inner, field)


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, validators=[one_line])
    game = serializers.ChoiceField(choices=GAME_CHOICES, error_messages={
        "invalid_choice": "unknown game {input!r}; choose one of " + GAME_IDS})
    format = serializers.ChoiceField(
        choices=FORMAT_CHOICES, error_messages={
            "invalid_choice": "unknown format {input!r}; choose one of " + FORMAT_IDS},
        help_text="scored for solo games (g2048, robots); any other for two-player games")
    games_per_series = serializers.IntegerField(
        min_value=1, max_value=services.MAX_SERIES_GAMES, default=2,
        help_text="games per series, seats alternated (scored: seeds per round)")
    rounds = serializers.IntegerField(
        min_value=1, max_value=services.MAX_ROUNDS, required=False, allow_null=True,
        help_text="Swiss and scored: rounds to play (default: the format's)")
    third_place = serializers.BooleanField(
        default=False, help_text="single elimination: the semi-finals' losers play on")
    bracket_reset = serializers.BooleanField(
        default=True, help_text="double elimination: a second grand final when the losers' "
                                "bracket winner wins the first")
    field_limit = serializers.IntegerField(
        min_value=2, default=16, help_text="most entries (players: up to "
                                           "LEAGUE_TOURNAMENT_MAX_FIELD, 64 by default)")
    registration_opens = serializers.DateTimeField(required=False, allow_null=True,
                                                   help_text="default: now")
    registration_closes = serializers.DateTimeField()
    starts_at = serializers.DateTimeField(help_text="within 60 days")
    options = serializers.DictField(required=False, default=dict,
                                    help_text="the game's options over its ladder's")
    limits = serializers.DictField(required=False, default=dict,
                                   help_text="staff only: sandbox limits over the ladder's")
    official = serializers.BooleanField(default=False, help_text="staff only")
    open_to_league_bots = serializers.BooleanField(
        default=False, help_text="at the start the league fills the places left with bots "
        "whose owners take challenges (the demo's among them), the strongest first")
    description = serializers.CharField(max_length=4000, required=False, allow_blank=True,
                                        default="", validators=[multi_line])
    every_seconds = serializers.IntegerField(
        required=False, allow_null=True, min_value=60, max_value=60 * 86400,
        help_text="it comes back: each edition this long after the one before (players: a "
                  "day or more, LEAGUE_RECURRING_MIN_EVERY; staff: 10 minutes or more)")
    min_rated_games = serializers.IntegerField(
        min_value=0, max_value=10**6, default=0,
        help_text="entry condition: rated games of the bot's version on the ladder")
    rating_min = serializers.FloatField(required=False, allow_null=True,
                                        help_text="entry condition: lowest ladder rating")
    rating_max = serializers.FloatField(required=False, allow_null=True,
                                        help_text="entry condition: highest ladder rating")
    allowed_owners = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, default=list,
        max_length=50, help_text="entry condition: only these users' bots (empty: anyone's)")

    def validate_options(self, value: dict[str, Any]) -> dict[str, Any]:
        _finite(value, "an option")
        return value

    def validate_limits(self, value: dict[str, Any]) -> dict[str, Any]:
        _finite(value, "a limit")
        return value

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        every = data.pop("every_seconds", None)
        data["every"] = None if every is None else timedelta(seconds=every)
        return data


class EntryCreateSerializer(serializers.Serializer):
    bot = IdField(help_text="the id of one of your bots")


class CancelSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                   default="", help_text="shown on the tournament",
                                   validators=[one_line])


class TournamentFilters(serializers.Serializer):
    state = serializers.ChoiceField(choices=TournamentState.choices, required=False)
    game = serializers.ChoiceField(choices=GAME_CHOICES, required=False)


# -- challenges ------------------------------------------------------------------------------

class ChallengeSerializer(serializers.ModelSerializer):
    game = serializers.CharField(source="bot.game")
    challenger = serializers.CharField(source="challenger.username")
    bot_id = serializers.IntegerField()
    bot = serializers.CharField(source="bot.name")
    version = serializers.IntegerField(source="version.number",
                                       help_text="the challenger's version that plays")
    opponent_id = serializers.IntegerField(allow_null=True, help_text="null: a built-in")
    opponent = serializers.SerializerMethodField(help_text="the bot's name (null: a built-in)")
    opponent_owner = serializers.SerializerMethodField()
    opponent_version = serializers.SerializerMethodField()
    builtin = serializers.SerializerMethodField(help_text="the built-in player's name")

    class Meta:
        model = Challenge
        fields = ["id", "game", "challenger", "bot_id", "bot", "version", "opponent_id",
                  "opponent", "opponent_owner", "opponent_version", "builtin", "games",
                  "state", "created_at", "finished_at"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_opponent(self, c: Challenge) -> str | None:
        return c.opponent.name if c.opponent_id else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_opponent_owner(self, c: Challenge) -> str | None:
        return c.opponent.owner.username if c.opponent_id else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_opponent_version(self, c: Challenge) -> int | None:
        return c.opponent_version.number if c.opponent_version_id else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_builtin(self, c: Challenge) -> str | None:
        return c.opponent_builtin or None


class ChallengeGameSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id", allow_null=True,
                                     help_text="null until the game is released to workers")
    status = serializers.CharField(help_text="the match's status, or waiting")
    challenger_seat = serializers.IntegerField()
    result = serializers.CharField(help_text="won, lost or draw for the challenger; else "
                                             "where it stands")


class ChallengeDetailSerializer(ChallengeSerializer):
    """The challenge with what ``selectors.challenge_page`` made of it (in context)."""

    results = serializers.SerializerMethodField(help_text="its games, in order")
    won = serializers.SerializerMethodField()
    lost = serializers.SerializerMethodField()
    drawn = serializers.SerializerMethodField()

    class Meta(ChallengeSerializer.Meta):
        fields = [*ChallengeSerializer.Meta.fields, "results", "won", "lost", "drawn"]

    def _page(self) -> ChallengePage:
        return self.context["page"]

    @extend_schema_field(ChallengeGameSerializer(many=True))
    def get_results(self, c: Challenge) -> list[dict[str, Any]]:
        return ChallengeGameSerializer(self._page().games, many=True).data

    @extend_schema_field(serializers.IntegerField())
    def get_won(self, c: Challenge) -> int:
        return self._page().wins

    @extend_schema_field(serializers.IntegerField())
    def get_lost(self, c: Challenge) -> int:
        return self._page().losses

    @extend_schema_field(serializers.IntegerField())
    def get_drawn(self, c: Challenge) -> int:
        return self._page().draws


class ChallengeCreateSerializer(serializers.Serializer):
    bot = IdField(help_text="the id of one of your bots")
    opponent = IdField(required=False, allow_null=True,
                                        help_text="a public bot's id (or give builtin)")
    builtin = serializers.CharField(max_length=32, required=False, allow_blank=True,
                                    default="", help_text="a built-in player, e.g. random")
    games = serializers.IntegerField(min_value=1, max_value=services.MAX_CHALLENGE_GAMES,
                                     default=services.DEFAULT_CHALLENGE_GAMES,
                                     help_text="seats alternated; even by default, so each "
                                     "bot has each seat as often")


class ChallengeFilters(serializers.Serializer):
    bot = IdField(required=False,
                                   help_text="bot id: its challenges, made or received")
