"""Tournaments (entries, series, their games) and challenges. Every game is an ordinary
``ladders.Match`` of kind ``tournament`` or ``challenge`` on the match lifecycle (claim once,
the reaper, retries); the rows here say which series a match belongs to and in which seat
each side sits. Nothing here is rated: finishing a match changes ladder standings only for
ladder matches."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from league.bots.models import Bot, BotVersion, game_choices
from league.competitions.formats import Format
from league.ladders.models import Ladder, Match, Season


class TournamentState(models.TextChoices):
    DRAFT = "draft"
    """Made, registration not open yet."""
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


UPCOMING = (TournamentState.DRAFT, TournamentState.REGISTRATION)
"""Before the start: the field may change (entries register and withdraw)."""
DONE = (TournamentState.FINISHED, TournamentState.CANCELLED)
"""Over: nothing more is played."""

FORMAT_CHOICES = [(f.value, f.value.replace("_", " ")) for f in Format]


class Recurrence(models.Model):
    """A tournament that comes back on its own (``league.competitions.recurring``): each
    edition a copy of the one before, its start ``every`` later, listed as soon as the one
    before has started."""

    every = models.DurationField()
    opens_before = models.DurationField()
    """Registration for an edition opens this long before its start (or when it is made,
    if later)."""
    closes_before = models.DurationField()
    """Entries close this long before an edition's start."""
    active = models.BooleanField(default=True)
    """Stopped: no edition is made any more (those made stay)."""
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="recurrences")
    created_at = models.DateTimeField(auto_now_add=True)
    stopped_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"every {self.every}"


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    game = models.CharField(max_length=32, choices=game_choices)
    ladder = models.ForeignKey(Ladder, on_delete=models.PROTECT, related_name="tournaments")
    """The game's ladder: the backend its games run on, and the defaults of options and
    limits. Its ratings are never touched."""
    format = models.CharField(max_length=24, choices=FORMAT_CHOICES)
    games = models.PositiveSmallIntegerField(default=2)
    """Games per series, seats alternated (scored: seeds per round)."""
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    """Swiss and scored: rounds to play (the format's default when empty)."""
    third_place = models.BooleanField(default=False)
    bracket_reset = models.BooleanField(default=True)
    options = models.JSONField(default=dict, blank=True)
    """The game's options (the ladder's when the tournament was made)."""
    limits = models.JSONField(default=dict, blank=True)
    """``sandbox.Limits`` fields (the ladder's when the tournament was made)."""
    seed = models.BigIntegerField()
    """Every game's engine seed comes from this and the game's seed index."""
    field_limit = models.PositiveIntegerField(default=16)
    registration_opens = models.DateTimeField()
    registration_closes = models.DateTimeField()
    starts_at = models.DateTimeField()
    state = models.CharField(max_length=12, choices=TournamentState.choices,
                             default=TournamentState.DRAFT)
    official = models.BooleanField(default=False)
    """Made by staff for the whole league."""
    open_to_league_bots = models.BooleanField(default=False)
    """At the start the league fills the places left with bots that may be entered by
    anyone: the demo's, and those whose owners take challenges (``league_bots``)."""
    description = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.CASCADE, related_name="tournaments")
    """Null: made by the league itself (a season's finals)."""
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)
    """Why it was cancelled, or what happened on the way (entries dropped at the start)."""
    recurrence = models.ForeignKey(Recurrence, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="editions")
    """The schedule it is an edition of, if it comes back."""
    # Who may enter (``league.competitions.conditions``), copied to every edition.
    min_rated_games = models.PositiveIntegerField(default=0)
    """Games the bot's playing version has on the game's ladder, at least."""
    rating_min = models.FloatField(null=True, blank=True)
    rating_max = models.FloatField(null=True, blank=True)
    """The band the bot's ladder rating (as the board shows it) must be in."""
    allowed_owners = models.JSONField(default=list, blank=True)
    """User names whose bots may enter; empty: anyone's."""
    finals_of = models.OneToOneField(Season, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="finals")
    """The season whose finals it is (``league.competitions.finals``): one per season."""
    results_held = models.BooleanField(default=False)
    """Its results (standings, bracket, games) are shown to staff only until released."""
    released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["state", "starts_at"])]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A bot in a tournament; the version that plays is frozen when the tournament starts."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="entries")
    version = models.ForeignKey(BotVersion, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="+")
    seed = models.PositiveIntegerField(null=True, blank=True)
    """1 is the strongest: by the ladder's board at the start, then by registration."""
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn = models.BooleanField(default=False)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "bot"],
                                               name="one_entry_per_bot")]

    def __str__(self) -> str:
        return f"{self.bot.name} in {self.tournament}"


class Series(models.Model):
    """One pairing of a round as the format made it: a series of games, a bye, a solo run."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series")
    round = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    """Its place in the round, as the format listed it."""
    key = models.CharField(max_length=40)
    kind = models.CharField(max_length=8)
    """``formats.PairingKind``."""
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    games = models.PositiveSmallIntegerField()
    decider = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = "series"
        ordering = ["round", "position"]
        constraints = [models.UniqueConstraint(fields=["tournament", "key"],
                                               name="one_series_per_key")]

    def __str__(self) -> str:
        return f"{self.tournament}: round {self.round}, {self.key}"


class SeriesGame(models.Model):
    """One game a series owes: its seats, its seed, and the match that plays it (made when the
    game is released to the workers; a failed match is replayed by a new one)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="series_games")
    index = models.PositiveSmallIntegerField()
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    """The entry in seat 0."""
    second = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    seed_index = models.PositiveIntegerField()
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="series_game")
    replays = models.PositiveSmallIntegerField(default=0)
    """Matches made again after one failed (an infrastructure fault)."""

    class Meta:
        ordering = ["series", "index"]
        constraints = [models.UniqueConstraint(fields=["series", "index"],
                                               name="one_game_per_index")]


class ChallengeState(models.TextChoices):
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Challenge(models.Model):
    """A user's bot against any public bot (or a built-in player): a series of 1-10 games,
    seats alternated, unrated, queued at once."""

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges")
    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="challenges_made")
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Bot, null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="challenges_received")
    opponent_version = models.ForeignKey(BotVersion, null=True, blank=True,
                                         on_delete=models.CASCADE, related_name="+")
    opponent_builtin = models.CharField(max_length=32, blank=True)
    ladder = models.ForeignKey(Ladder, on_delete=models.PROTECT, related_name="challenges")
    games = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    state = models.CharField(max_length=10, choices=ChallengeState.choices,
                             default=ChallengeState.PLAYING)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["state", "created_at"])]

    def __str__(self) -> str:
        return f"challenge {self.pk}"

    @property
    def opponent_label(self) -> str:
        if self.opponent_version_id:
            return str(self.opponent_version)
        return f"builtin:{self.opponent_builtin}"


class ChallengeGame(models.Model):
    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="rows")
    index = models.PositiveSmallIntegerField()
    challenger_seat = models.PositiveSmallIntegerField()
    seed_index = models.PositiveIntegerField()
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="challenge_game")
    replays = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["challenge", "index"]
        constraints = [models.UniqueConstraint(fields=["challenge", "index"],
                                               name="one_challenge_game_per_index")]
