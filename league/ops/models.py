"""What the operator's status page needs that no other table holds: which workers are alive."""

from __future__ import annotations

from django.db import models


class WorkerPresence(models.Model):
    """One Celery worker node (a host or container), stamped while it runs.

    A worker stopping cleanly deletes its row; one that dies leaves it, and the status page
    shows it as lost once ``seen_at`` is older than a few beats.
    """

    name = models.CharField(max_length=200, unique=True)
    """The node's host name: ``claimed_by`` of its matches starts with it."""
    concurrency = models.PositiveSmallIntegerField(default=1)
    backend = models.CharField(max_length=16, blank=True)
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name
