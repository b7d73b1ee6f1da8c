"""What each person wants to be told and how, and what the league told them.

A ``Notice`` is one event told to one person (its ``public_id`` is the event id a webhook's
headers carry); its e-mail and webhook each have a state, moved by the Celery tasks
(``league.notifications.tasks``) with conditional updates, so a task delivered twice sends
nothing twice. Every webhook attempt is an ``Attempt`` row: the delivery log."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class EventKind(models.TextChoices):
    VERSION_VALIDATED = "version.validated", "a version passed validation"
    VERSION_REJECTED = "version.rejected", "a version was rejected (with the reason)"
    VERSIONTEST_DECIDED = "versiontest.decided", "a version test ended (its verdict)"
    CHALLENGE_FINISHED = "challenge.finished", "a challenge finished"
    TOURNAMENT_FINISHED = "tournament.finished", "a tournament finished"
    BOT_DISABLED = "bot.disabled", "a bot was disabled"


class Preference(models.Model):
    """One person's channels for one kind of event; no row: ``DEFAULTS``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notification_preferences")
    event = models.CharField(max_length=32, choices=EventKind.choices)
    email = models.BooleanField(default=True)
    webhook = models.BooleanField(default=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "event"],
                                               name="one_preference_per_event")]


class Webhook(models.Model):
    """A person's address for webhooks and the secret its deliveries are signed with.

    The secret is kept as it is (signing needs it) and shown to its owner once, when it is
    made; pages and the API show only its first characters after that."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="webhook")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)
    secret_made_at = models.DateTimeField()

    @property
    def secret_hint(self) -> str:
        return f"{self.secret[:10]}…"


class State(models.TextChoices):
    OFF = "off"
    """Not wanted by this channel (or no webhook, no confirmed address)."""
    PENDING = "pending"
    SENDING = "sending"
    """Claimed by a task: a task delivered again finds it taken and sends nothing."""
    SENT = "sent"
    FAILED = "failed"


class Notice(models.Model):
    public_id = models.CharField(max_length=40, unique=True)
    key = models.CharField(max_length=120, unique=True)
    """What it is about, for this person (``version.rejected:42:7``): an event written twice
    (a retried transaction, a tick run again) is one notice."""
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notices")
    kind = models.CharField(max_length=32, choices=EventKind.choices)
    title = models.CharField(max_length=200)
    text = models.TextField()
    """The e-mail's body and the webhook's ``text``: public words only (no log, no source,
    no server path)."""
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    email_state = models.CharField(max_length=8, choices=State.choices, default=State.OFF)
    email_to = models.EmailField(blank=True)
    email_error = models.CharField(max_length=300, blank=True)
    email_attempts = models.PositiveSmallIntegerField(default=0)
    email_due = models.DateTimeField(null=True, blank=True)
    webhook_state = models.CharField(max_length=8, choices=State.choices, default=State.OFF)
    webhook_attempts = models.PositiveSmallIntegerField(default=0)
    webhook_due = models.DateTimeField(null=True, blank=True)
    """Each channel's ``due``: while pending, when its task should run (now, or after the
    back-off); while sending, when its task took it. The sweep (``sweep``) finds by it a
    pending notice whose task was lost (the broker refused it, a worker dropped it) and a
    sending one whose worker died mid-delivery; a notice is never lost to either."""

    class Meta:
        indexes = [models.Index(fields=["user", "-created_at"]),
                   # the sweep's two look-ups: only unfinished rows are in them
                   models.Index(fields=["email_due"], name="notice_email_unfinished",
                                condition=models.Q(email_state__in=["pending", "sending"])),
                   models.Index(fields=["webhook_due"], name="notice_hook_unfinished",
                                condition=models.Q(webhook_state__in=["pending", "sending"]))]
        ordering = ["-created_at", "-pk"]


class Attempt(models.Model):
    """One try at delivering a notice to a webhook."""

    notice = models.ForeignKey(Notice, on_delete=models.CASCADE, related_name="attempts")
    number = models.PositiveSmallIntegerField()
    url = models.CharField(max_length=500)
    at = models.DateTimeField()
    ms = models.PositiveIntegerField(default=0)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    ok = models.BooleanField(default=False)
    error = models.CharField(max_length=300, blank=True)
    """What went wrong, in words ("refused: 10.0.0.5 is a private address", "timed out")."""
    response = models.CharField(max_length=200, blank=True)
    """The receiver's answer, cut short: kept to help its owner, never more."""

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["notice", "number"],
                                               name="one_attempt_per_number")]
