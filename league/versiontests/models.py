"""A sequential test of two versions (issue 33) and its games.

Each game is an ordinary ``ladders.Match`` of kind ``versiontest`` on the match lifecycle;
the rows here say which pair a match belongs to and where the candidate sits. The test's
state is its counts (pentanomial for two-player games, running sums of the paired
differences for solo games) and the LLR after each pair, from which the verdict follows
(``league.versiontests.sprt``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from league.bots.models import Bot, BotVersion
from league.ladders.models import Ladder, Match


class TestState(models.TextChoices):
    RUNNING = "running"
    H1 = "h1"
    """The candidate is stronger by at least elo1 (to the test's error rates)."""
    H0 = "h0"
    """The candidate is stronger by at most elo0."""
    UNDECIDED = "undecided"
    """The cap on games came first."""
    CANCELLED = "cancelled"


DONE = (TestState.H1, TestState.H0, TestState.UNDECIDED, TestState.CANCELLED)


class VersionTest(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="version_tests")
    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="version_tests")
    candidate = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="+")
    baseline = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="+")
    """Another version of the bot (its active one by default), or any bot's that plays."""
    ladder = models.ForeignKey(Ladder, on_delete=models.PROTECT, related_name="version_tests")
    """The game's ladder: its backend, options and limits (never its ratings)."""
    solo = models.BooleanField(default=False)
    """A solo game: both versions play the same seeds; the test is on the score differences."""
    elo0 = models.FloatField(default=0.0)
    elo1 = models.FloatField(default=50.0)
    """The hypotheses, in normalised Elo (docs/version-tests.md)."""
    alpha = models.FloatField(default=0.05)
    beta = models.FloatField(default=0.05)
    max_games = models.PositiveIntegerField(default=1000)
    seed = models.BigIntegerField()
    """Every pair's engine seed comes from this and the pair's index."""
    state = models.CharField(max_length=10, choices=TestState.choices,
                             default=TestState.RUNNING)
    reason = models.CharField(max_length=200, blank=True)
    """Why it was cancelled."""
    public = models.BooleanField(default=False)
    """Anyone may see it and its games; else its owner and staff."""
    promotes = models.BooleanField(default=False)
    """Started by an upload with a test: its candidate becomes the bot's active version if
    the test ends H1 (and the baseline is still the active one); else it stays off the
    ladder (``league.versiontests.promotion``)."""
    counts = models.JSONField(default=list)
    """Two-player: the pairs that scored the candidate 0, ½, 1, 1½ and 2 points."""
    sums = models.JSONField(default=list)
    """Solo: the paired differences' count, sum and sum of squares."""
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    llr = models.FloatField(default=0.0)
    history = models.JSONField(default=list)
    """The LLR after each pair, rounded to 3 decimals (the chart's points)."""
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["state", "created_at"])]

    def __str__(self) -> str:
        return f"test {self.pk}: {self.candidate} against {self.baseline}"

    @property
    def pairs(self) -> int:
        return len(self.history)


class TestGame(models.Model):
    """A game of a test: ``pair`` and ``index`` (0 or 1) within it; in a two-player pair the
    candidate takes seat 0 in one game and seat 1 in the other; in a solo pair game 0 is the
    candidate's and game 1 the baseline's, on the pair's seed."""

    test = models.ForeignKey(VersionTest, on_delete=models.CASCADE, related_name="games")
    pair = models.PositiveIntegerField()
    index = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="version_test_game")
    counted = models.BooleanField(default=False)
    """Its pair's result is in the test's counts (so a pair is never counted twice)."""

    class Meta:
        ordering = ["test", "pair", "index"]
        constraints = [models.UniqueConstraint(fields=["test", "pair", "index"],
                                               name="one_test_game_per_slot")]
