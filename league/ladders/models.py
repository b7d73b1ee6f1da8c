"""Ladders, their matches and participants, current standings, and replays."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Case, F, Lookup, Q, Value, When

from games import Outcome
from league.bots.models import Bot, BotVersion, game_choices
from replay import MatchRecord
from sandbox import ForfeitKind, Limits


class LadderKind(models.TextChoices):
    RATED = "rated"
    """Two-player: openskill ratings, every pairing played twice with seats swapped."""
    SCORED = "scored"
    """Solo: mean score over the ladder's fixed seeds."""


class Ladder(models.Model):
    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=80)
    game = models.CharField(max_length=32, choices=game_choices, unique=True)
    kind = models.CharField(max_length=8, choices=LadderKind.choices)
    options = models.JSONField(default=dict, blank=True)
    limits = models.JSONField(default=dict, blank=True)
    """``sandbox.Limits`` fields that differ from the defaults."""
    backend = models.CharField(max_length=16, default="process")
    seeds = models.JSONField(default=list, blank=True)
    """A scored ladder's fixed seed set: every active version plays each once."""
    validation_opponent = models.CharField(max_length=32, default="random")
    active = models.BooleanField(default=True)

    def __str__(self) -> str:
        return self.title

    @property
    def sandbox_limits(self) -> Limits:
        return Limits.from_json(self.limits)

    @property
    def rated(self) -> bool:
        return self.kind == LadderKind.RATED


class MatchKind(models.TextChoices):
    VALIDATION = "validation"
    LADDER = "ladder"
    CHALLENGE = "challenge"
    TOURNAMENT = "tournament"
    EXHIBITION = "exhibition"
    """A person against a bot (or a solo game) in the browser: unrated, on the play queue."""
    VERSIONTEST = "versiontest"
    """A game of a sequential test of two versions (``league.versiontests``): unrated."""


class MatchStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    FINISHED = "finished"
    FAILED = "failed"
    CANCELLED = "cancelled"



OPEN_STATUSES = (MatchStatus.QUEUED, MatchStatus.RUNNING)
"""Still to be played, or playing (``lifecycle.OPEN``): a few dozen rows among millions."""


class OpenStatus(Lookup):
    """``status__open=True``: the match is queued or running, with the statuses written into
    the SQL as they are in the condition of the index of open matches (``match_open``).
    SQLite uses a partial index only when the query repeats its condition word for word, and
    never for a bound parameter; its statistics cannot tell that a status is rare either
    (no histograms), so a query on open matches by status alone scanned every match."""

    lookup_name = "open"
    prepare_rhs = False

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        if self.rhs is not True:
            raise ValueError("status__open takes True (the open statuses)")
        lhs, params = self.process_lhs(compiler, connection)
        statuses = ", ".join(f"'{status.value}'" for status in OPEN_STATUSES)  # constants
        return f"{lhs} IN ({statuses})", list(params)


class Match(models.Model):
    # no index of its own: each of the ladder's indexes below starts with it (one index
    # fewer to write with every match made)
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="matches",
                               db_index=False)
    kind = models.CharField(max_length=12, choices=MatchKind.choices, default=MatchKind.LADDER)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=MatchStatus.choices,
                              default=MatchStatus.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    claimed_by = models.CharField(max_length=200, blank=True)
    claim_token = models.CharField(max_length=32, blank=True)
    """Which attempt holds the match; only that attempt may write its result."""
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    """The engine's ``Result.to_json()``."""
    reason = models.CharField(max_length=40, blank=True)
    """How it ended (``game-over``, ``forfeit``...) or, for a failed match, why it failed."""
    detail = models.TextField(blank=True)
    moves = models.PositiveIntegerField(default=0)
    duration = models.FloatField(default=0.0)
    options = models.JSONField(null=True, blank=True)
    """The game's options when not the ladder's (a tournament's own)."""
    limits = models.JSONField(null=True, blank=True)
    """``sandbox.Limits`` fields when not the ladder's (a tournament's own)."""

    class Meta:
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["ladder", "status"]),
                   # matchmaking's latest meetings of a ladder, and the rate cap
                   models.Index(fields=["ladder", "kind", "-id"], name="match_ladder_kind_id"),
                   models.Index(fields=["created_at"], name="match_created"),
                   models.Index(fields=["status", "heartbeat_at"]),
                   models.Index(fields=["-finished_at"]),
                   # a ladder page's latest matches, however seldom that ladder plays
                   models.Index(fields=["ladder", "-finished_at"],
                                name="match_ladder_finished"),
                   # the open matches (``status__open=True``): queues, health, the reaper
                   models.Index(fields=["status", "ladder"], name="match_open",
                                condition=Q(status__in=[s.value for s in OPEN_STATUSES]))]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.ladder.game}, {self.status})"

    @property
    def game_options(self) -> dict[str, Any]:
        """The options the match is played with: its own, else its ladder's."""
        return self.options if self.options is not None else self.ladder.options


Match._meta.get_field("status").register_lookup(OpenStatus)


class Participant(models.Model):
    """One seat of a match; after it ends, how that seat did and what it did to the rating."""

    # no index of its own: the (match, seat) constraint's starts with it
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="participants",
                              db_index=False)
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey(BotVersion, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="participations", db_index=False)
    """Indexed with the match (``participant_version_match``): a version's matches in order."""
    builtin = models.CharField(max_length=32, blank=True)
    """A built-in opponent (validation matches) instead of a version."""
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.CASCADE, related_name="+", db_index=False)
    """A person in this seat (an exhibition) instead of a version or a built-in player;
    a person's games are found through ``Exhibition.user``."""
    outcome = models.CharField(max_length=4, blank=True,
                               choices=[(o.value, o.value) for o in Outcome])
    score = models.FloatField(null=True, blank=True)
    forfeit = models.CharField(max_length=16, blank=True,
                               choices=[(k.value, k.value) for k in ForfeitKind])
    forfeit_detail = models.TextField(blank=True)
    moves = models.PositiveIntegerField(default=0)
    time_used = models.FloatField(default=0.0)
    exit = models.CharField(max_length=80, blank=True)
    log = models.TextField(blank=True)
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"],
                                               name="one_participant_per_seat")]
        # The id as the last key (not INCLUDE: SQLite has no covering indexes) lets a
        # version's latest participations be read from the index alone.
        indexes = [models.Index(fields=["version", "match", "id"],
                                name="participant_version_match"),
                   # a version's latest forfeits (the statistics page): forfeits are few,
                   # so a small index read from its newest end
                   models.Index(fields=["version", "-match"], name="participant_forfeits",
                                condition=~Q(forfeit=""))]

    @property
    def label(self) -> str:
        if self.player_id:
            return f"{self.player.username} (person)"
        return str(self.version) if self.version_id else f"builtin:{self.builtin}"

    @property
    def rating_change(self) -> tuple[float, float] | None:
        """The board's rating (mu - 3 sigma) before and after this match, if it was rated."""
        if None in (self.mu_before, self.sigma_before, self.mu_after, self.sigma_after):
            return None
        return (self.mu_before - 3 * self.sigma_before, self.mu_after - 3 * self.sigma_after)


NO_SCORE = -1e300
"""A scored board's value for a version with no score yet: below any mean, so it is last."""


class Standing(models.Model):
    """A version's current place on its ladder: its rating, or its scores so far."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="standings")
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="standings")
    mu = models.FloatField(default=0.0)
    sigma = models.FloatField(default=0.0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    score_sum = models.FloatField(default=0.0)
    score_sq_sum = models.FloatField(default=0.0)
    recent = models.FloatField(default=0.0)
    """Ladder matches finished lately, each counting less as it ages (half after
    ``ratings.RECENT_HALF_LIFE``), as of ``recent_at``: matchmaking's sense of how busy a
    version has been, kept up by the finishing transaction instead of recounted per tick."""
    recent_at = models.DateTimeField(null=True, blank=True)
    since_match = models.BigIntegerField(default=0)
    """The ladder's matches with ids up to this one were made before the season this standing
    counts for started (``Season.after_match``, stamped on every standing by the season's
    reset, and on one placed during it): such a match, ending now, moves nothing here
    (``league.ladders.seasons``: a match counts for the season it was made in)."""
    updated_at = models.DateTimeField(auto_now=True)
    """When the row was last written other than by a finished match (placed, set right by
    ``standings_recount --fix``, edited, its match re-run): what matchmaking's kept boards
    read again (``league.ladders.boards``). A finish's changes they learn from the match."""

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ladder", "version"],
                                               name="one_standing_per_version")]
        # The two orders of a board (``league.ladders.selectors.BOARD_ORDER``), so a page of
        # it is read in order and the scan stops there.
        indexes = [
            models.Index(F("ladder"), (F("mu") - 3 * F("sigma")).desc(), F("id"),
                         name="standing_board_rated"),
            models.Index(F("ladder"), Case(When(games__gt=0, then=F("score_sum") / F("games")),
                                           default=Value(NO_SCORE)).desc(), F("id"),
                         name="standing_board_scored"),
            # matchmaking: the standings written since a kept board was read, and whether
            # any version of a scored ladder still owes a seed
            models.Index(fields=["ladder", "updated_at"], name="standing_ladder_updated"),
            models.Index(fields=["ladder", "games"], name="standing_ladder_games"),
        ]

    @property
    def ordinal(self) -> float:
        """What the board ranks by: mu - 3 sigma (a conservative estimate of skill)."""
        return self.mu - 3 * self.sigma


class SeasonState(models.TextChoices):
    UPCOMING = "upcoming"
    RUNNING = "running"
    ENDED = "ended"


FINALS_FORMATS = [(f, f.replace("_", " ")) for f in (
    "round_robin", "double_round_robin", "swiss", "single_elimination", "double_elimination",
    "scored")]
"""The tournament formats a season's finals may have (``competitions.formats.Format``)."""


class FinalsRelease(models.TextChoices):
    AT_ONCE = "at_once", "at once"
    """The finals' results show as they are played."""
    STAFF = "staff", "when staff release them"
    """Hidden from everyone but staff until staff release them."""


class Season(models.Model):
    """A stretch of a ladder's play with a start and an end (``league.ladders.seasons``).

    At its start every standing of the ladder starts afresh: the versions stay, a rated
    ladder's ratings go back to the start value (or keep ``carry`` of their distance from it)
    with sigma back at the start (provisional again), a scored ladder's counts go to zero. At
    its end the board is written down as its table (``SeasonPlace``), kept for ever. What
    divisions and finals will hang on: a season is the span they belong to."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField()
    """1, 2, 3... per ladder, in the order the seasons were made."""
    name = models.CharField(max_length=80, blank=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    state = models.CharField(max_length=8, choices=SeasonState.choices,
                             default=SeasonState.UPCOMING)
    carry = models.FloatField(default=0.0)
    """How much of a rated standing's skill its start keeps, 0 to 1: mu starts at
    ``start + carry * (mu - start)``; sigma always starts at the start value. 0: everyone
    starts equal; 1: the order of the mus survives, but every rating is unsure again."""
    repeat_every = models.DurationField(null=True, blank=True)
    """When set, the season's end makes the next one, of this length (and repeating too)."""
    after_match = models.BigIntegerField(default=0)
    """The last match id made before the season started: the ladder's matches above it are
    this season's (set by its start, under the ladder's lock, which every ladder match is
    made under)."""
    started_at = models.DateTimeField(null=True, blank=True)
    """When the tick actually started it (its standings reset): ``starts_at`` or a beat later."""
    ended_at = models.DateTimeField(null=True, blank=True)
    """When the tick actually closed it (its table written)."""
    # Finals (``league.competitions.finals``): the top of the table play a tournament the
    # league makes at the end. The formats are the competitions' (this layer names them only:
    # ``FINALS_FORMATS``, kept equal to ``competitions.formats.Format`` by a test).
    finals_size = models.PositiveSmallIntegerField(default=0)
    """The top N of its table enter its finals; 0: no finals."""
    finals_format = models.CharField(max_length=24, blank=True, choices=FINALS_FORMATS)
    freeze_for_finals = models.BooleanField(default=False)
    """While its finals run, a version uploaded for a bot entered in them waits (validated,
    not active) until they end."""
    finals_release = models.CharField(max_length=8, choices=FinalsRelease.choices,
                                      default=FinalsRelease.AT_ONCE)
    finals_hold = models.BooleanField(default=False)
    """Its finals are running and freeze the uploads of their entries (set when they are made,
    cleared by the competitions tick once they are over)."""
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ladder", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "number"], name="one_season_number"),
            # two ticks starting seasons at once cannot both win
            models.UniqueConstraint(fields=["ladder"], condition=Q(state="running"),
                                    name="one_running_season"),
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")),
                                   name="season_ends_after_start"),
            models.CheckConstraint(condition=Q(carry__gte=0.0, carry__lte=1.0),
                                   name="season_carry_fraction"),
            models.CheckConstraint(condition=Q(finals_size=0) | ~Q(finals_format=""),
                                   name="season_finals_have_a_format"),
        ]
        # the validation's check of a frozen finals' hold
        indexes = [models.Index(fields=["ladder"], condition=Q(finals_hold=True),
                                name="season_finals_hold")]

    def __str__(self) -> str:
        return f"{self.ladder} · {self.title}"

    @property
    def title(self) -> str:
        return self.name or f"Season {self.number}"


class SeasonPlace(models.Model):
    """One row of an ended season's table: a bot's place and its standing at the end, as the
    board had it. Written once by the season's close, never changed."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="places")
    place = models.PositiveIntegerField()
    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="season_places")
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="+",
                                db_index=False)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True)
    """mu - 3 sigma, what the board ranked by (rated ladders)."""
    mean = models.FloatField(null=True, blank=True)
    """The mean score and its 95 % interval's half-width (scored ladders)."""
    ci = models.FloatField(null=True, blank=True)
    provisional = models.BooleanField(default=False)
    """Its place was not yet to be trusted when the season ended (as the board marked it)."""

    class Meta:
        ordering = ["season", "place"]
        constraints = [
            models.UniqueConstraint(fields=["season", "place"], name="one_place_per_season"),
            models.UniqueConstraint(fields=["season", "bot"], name="one_bot_per_season"),
        ]
        # a bot's page lists its past seasons
        indexes = [models.Index(fields=["bot", "-season"], name="seasonplace_bot")]


class Exhibition(models.Model):
    """A person's seat in an exhibition match: who plays, on which clock, and the exchange of
    the person's moves with the worker's referee (``league.ladders.play``).

    The worker writes ``asked_*`` when it waits for the person's move (the clock the page
    shows starts there); the web writes the person's move into ``move_step``/``move`` once
    the engine has accepted it, at most one per step, and rings the worker's doorbell."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True,
                                 related_name="exhibition")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="exhibitions")
    seat = models.PositiveSmallIntegerField()
    move_time = models.FloatField()
    """Seconds the person has for each move (``LEAGUE_PLAY_MOVE_SECONDS`` when made)."""
    game_time = models.FloatField()
    """Seconds the person has for the whole game (``LEAGUE_PLAY_GAME_SECONDS``)."""
    first_move_time = models.FloatField(null=True, blank=True)
    """Seconds the person has for their first move (``LEAGUE_PLAY_FIRST_MOVE_SECONDS``); the
    move time when null (a game started before there was one)."""
    asked_attempt = models.PositiveIntegerField(default=0)
    asked_step = models.IntegerField(null=True, blank=True)
    """The step the worker's referee (attempt ``asked_attempt``) waits for the person's move
    at, since ``asked_at``: where the page's clock starts."""
    asked_at = models.DateTimeField(null=True, blank=True)
    move_step = models.IntegerField(null=True, blank=True)
    move = models.CharField(max_length=200, blank=True)
    """The person's latest move the engine accepted, for step ``move_step``; a new attempt of
    the match clears it."""
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # a person's games at once, and a person's latest games
        indexes = [models.Index(fields=["user", "-created_at"], name="exhibition_user")]


class LiveMove(models.Model):
    """A move of a running match, published by its worker as it is played so the match page
    can show it within a second (both setups share only the database). The rows of one
    attempt are that attempt's moves in order; all of a match's rows go when its replay is
    written."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="live_moves")
    attempt = models.PositiveIntegerField()
    number = models.PositiveIntegerField()
    """0-based: the move that makes step ``number + 1``."""
    seat = models.PositiveSmallIntegerField()
    move = models.TextField()
    time = models.FloatField()
    played_at = models.DateTimeField()
    """When the referee took the move (a page showing it later can tell how late it is)."""

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "attempt", "number"],
                                               name="one_live_move_per_number")]


class Replay(models.Model):
    """The match record (``replay.MatchRecord``), one per match, in its stored form.

    What a worker named each bot by (a folder on its disk) is not the league's to show:
    it is left out when a record is stored, and when one stored before that is read."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="replay")
    data = models.BinaryField()
    format = models.PositiveSmallIntegerField(default=1)

    @staticmethod
    def encode(record: MatchRecord) -> bytes:
        return _without_sources(record).to_bytes()

    @staticmethod
    def decode(data: bytes) -> MatchRecord:
        """Raises ``ValueError`` on data that is not a record."""
        return _without_sources(MatchRecord.from_bytes(bytes(data)))

    def record(self) -> dict[str, Any]:
        """The record as JSON, for the API."""
        return self.decode(self.data).to_json()


def _without_sources(record: MatchRecord) -> MatchRecord:
    return replace(record, players=[replace(p, source="") for p in record.players])


LENGTH_BOUNDS = (10, 20, 50, 100, 200, 500, 1000)
"""Upper bounds (exclusive) of a game's length buckets in moves; the last bucket is open.
Fixed for every game so one row's columns mean the same thing everywhere; from a 42-move
Connect Four to a 2048 game of thousands, each lands in a bucket of its own scale."""
MOVE_TIME_BOUNDS = (0.1, 0.25, 0.5, 0.75, 1.0)
"""Upper bounds (inclusive) of a move's time as a fraction of the move time limit; the last
bucket is a move over the limit (drawn from the time bank)."""


class VersionStats(models.Model):
    """A version's ladder matches summed by opponent version, seat and (scored ladders) seed:
    what the statistics pages read. Kept by the finishing transaction (one upsert a match)
    and rebuilt from the matches by ``manage.py stats_recount --fix``, so no page scans a
    version's history: a version has at most one row per opponent it met per seat."""

    # no index of its own: the key's unique index starts with it (one index fewer to write
    # in the finishing transaction)
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="stats",
                                db_index=False)
    opponent = models.BigIntegerField(default=0)
    """The opponent's version id; 0 for none (a solo game, a built-in player). Not a foreign
    key: the key must be NOT NULL for the upsert's conflict target on both databases, and a
    deleted opponent's rows should stay this version's history."""
    seat = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(default=0)
    """A scored ladder's seed (its fixed set makes a handful of rows); 0 on rated ladders."""
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    scored = models.PositiveIntegerField(default=0)
    score_sum = models.FloatField(default=0.0)
    score_sq_sum = models.FloatField(default=0.0)
    forfeit_timeout = models.PositiveIntegerField(default=0)
    forfeit_crash = models.PositiveIntegerField(default=0)
    forfeit_illegal = models.PositiveIntegerField(default=0)
    forfeit_malformed = models.PositiveIntegerField(default=0)
    forfeit_limit = models.PositiveIntegerField(default=0)
    """Over the output or the memory limit."""
    forfeit_start = models.PositiveIntegerField(default=0)
    """Could not start: did not compile, or a broken package."""
    length_sum = models.BigIntegerField(default=0)
    length_0 = models.PositiveIntegerField(default=0)
    length_1 = models.PositiveIntegerField(default=0)
    length_2 = models.PositiveIntegerField(default=0)
    length_3 = models.PositiveIntegerField(default=0)
    length_4 = models.PositiveIntegerField(default=0)
    length_5 = models.PositiveIntegerField(default=0)
    length_6 = models.PositiveIntegerField(default=0)
    length_7 = models.PositiveIntegerField(default=0)
    timed_moves = models.BigIntegerField(default=0)
    """The version's own moves counted in ``move_time_*`` (its first, which includes the
    start-up, left out)."""
    move_time_sum = models.FloatField(default=0.0)
    move_time_max = models.FloatField(default=0.0)
    """The longest of them as a fraction of the move time limit."""
    move_time_0 = models.BigIntegerField(default=0)
    move_time_1 = models.BigIntegerField(default=0)
    move_time_2 = models.BigIntegerField(default=0)
    move_time_3 = models.BigIntegerField(default=0)
    move_time_4 = models.BigIntegerField(default=0)
    move_time_5 = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["version", "opponent", "seat", "seed"],
                                               name="one_stats_row_per_key")]
