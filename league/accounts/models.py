"""People: a profile beside Django's user, and named API tokens stored only as hashes."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    display_name = models.CharField(max_length=60, blank=True)
    verified_email = models.EmailField(blank=True)
    """The address its owner proved they read (a link mailed to it, followed): the user's
    ``email`` is verified while it is this one, and only a verified address gets a password
    reset (``league.accounts.mail``). Any other change of ``email`` (the admin's) leaves it
    unverified."""

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class ApiToken(models.Model):
    """A named token for the API and ``botleague submit``.

    The secret is shown once, at creation; only its SHA-256 is kept (the secret is 256 random
    bits, so a fast hash is as safe as a slow one). ``prefix`` finds the row and is shown in
    lists so a person can tell their tokens apart.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=12, unique=True)
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
