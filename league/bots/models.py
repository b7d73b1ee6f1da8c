"""Bots and their immutable versions: every upload is a new version with its archive kept."""

from __future__ import annotations

from django.conf import settings
from django.db import models

import games


def game_choices() -> list[tuple[str, str]]:
    return [(g, games.game_class(g).title) for g in games.game_ids()]


class DisabledBy(models.TextChoices):
    STAFF = "staff", "staff"
    LEAGUE = "league", "the league"


class Bot(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="bots")
    game = models.CharField(max_length=32, choices=game_choices)
    name = models.CharField(max_length=40)
    source_public = models.BooleanField(default=False)
    """Whether others may download its source. The bot itself is public whatever this says:
    its page, versions, ratings, matches and replays; its logs are its owner's and staff's."""
    retired = models.BooleanField(default=False)
    """Retired by its owner: off the board, never scheduled, kept with its history."""
    disabled = models.BooleanField(default=False)
    """Disabled: like retired, with a reason. Staff's disabling only staff can undo; the
    league's (``disabled_by`` ``league``: it kept crashing) a new version that validates
    undoes, as a fixed bot deserves its place back without waiting for anyone."""
    disabled_reason = models.CharField(max_length=200, blank=True)
    disabled_by = models.CharField(max_length=8, choices=DisabledBy.choices, blank=True)
    crash_streak = models.PositiveIntegerField(default=0)
    """Its games in a row, the latest first, that ended in a crash forfeit
    (``ladders.streaks``): at ``LEAGUE_CRASH_STREAK_DISABLE`` it is disabled."""
    accepts_challenges = models.BooleanField(default=True)
    """Whether other people may challenge it (its owner always may)."""
    active_version = models.ForeignKey("BotVersion", null=True, blank=True,
                                       on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "name"],
                                               name="bot_name_unique_per_game")]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"

    @property
    def plays(self) -> bool:
        """Whether it plays: matchmaking may schedule it, and it may enter a tournament, be
        challenged or played against (``PLAYS`` is the same rule for a query)."""
        return not self.retired and not self.disabled and self.active_version_id is not None


PLAYS = models.Q(retired=False, disabled=False, active_version__isnull=False)
"""``Bot.plays`` as a query: ``Bot.objects.filter(PLAYS)``."""


class Roster(models.Model):
    """When the set of a game's playing bots (each one's active version, not retired, not
    disabled) last changed: a value that only grows, set by the database's own triggers on
    ``bots_bot`` (migration 0004) whatever writes it (the services, the admin, raw SQL), so
    that matchmaking reads a board's members again only when they may have changed
    (``ladders.boards``). No row: nothing has changed since the table was made."""

    game = models.CharField(max_length=32, primary_key=True)
    changes = models.BigIntegerField()
    """Microseconds since the epoch at the last change, or one more than the last value if
    that is larger: a database flushed and filled again never repeats a value it had."""


class VersionStatus(models.TextChoices):
    VALIDATING = "validating"
    ACTIVE = "active"
    REJECTED = "rejected"
    RETIRED = "retired"
    TESTING = "testing"
    """Validated, uploaded to become active only if it passes a version test against the
    bot's active version (``test_request``): off the ladder while its test runs."""


class Language(models.TextChoices):
    PYTHON = "python"
    NODE = "node"
    CPP = "cpp"


class BotVersion(models.Model):
    """One upload. Never edited after creation, except its validation's outcome (and an
    upload with a test's: its test's)."""

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    language = models.CharField(max_length=10, choices=Language.choices)
    entry = models.CharField(max_length=255)
    filename = models.CharField(max_length=255)
    archive = models.BinaryField()
    status = models.CharField(max_length=12, choices=VersionStatus.choices,
                              default=VersionStatus.VALIDATING)
    reason = models.TextField(blank=True)
    """Why a version was rejected: the forfeit reason and its detail, or the compiler's error."""
    log = models.TextField(blank=True)
    """The bot's stderr (or the compiler's output) from its validation match."""
    test_request = models.JSONField(null=True, blank=True)
    """An upload with a test (issue 33): the test's parameters (``elo0``, ``elo1``, ``alpha``,
    ``beta``, ``max_games``), and once it started its id (``test``). Null: an ordinary upload,
    active once it validates. Kept after the test, so its page can say what it was for."""
    created_at = models.DateTimeField(auto_now_add=True)
    validated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bot", "number"],
                                               name="version_number_unique_per_bot")]
        ordering = ["bot", "-number"]

    def __str__(self) -> str:
        return version_label(self.bot.name, self.number)


def version_label(bot_name: str, number: int) -> str:
    """How pages, logs and match records name a version."""
    return f"{bot_name} v{number}"
