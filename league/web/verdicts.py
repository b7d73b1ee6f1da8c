"""What an owner is told about a version they uploaded, on "my bots" and in the banner that
follows it to its verdict: a sentence, and for a rejection the last lines of its own log
(the owner's and staff's alone, as every log)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from league.bots.models import Bot, BotVersion, VersionStatus
from league.bots.selectors import AnyUser, owner_or_staff
from league.ladders.models import Ladder

LOG_TAIL_LINES = 8
"""A rejected version's log lines shown beside its reason (the whole log is on its page)."""


def log_tail(log: str, lines: int = LOG_TAIL_LINES) -> str:
    return "\n".join(log.rstrip("\n").split("\n")[-lines:]) if log.strip() else ""


def verdict(version: BotVersion) -> str:
    """The version's state as a sentence's end: what is happening, or what came of it."""
    if version.status == VersionStatus.VALIDATING and version.test_request is None:
        return "validating: it is playing one match against a random player"
    if version.status == VersionStatus.ACTIVE:
        ladder = Ladder.objects.filter(game=version.bot.game).first()
        where = ladder.title if ladder else version.bot.game
        # "active", as the list of versions says it
        return f"active (validated): it plays on the {where} ladder now"
    if version.status == VersionStatus.TESTING:
        return (f"testing: {version.reason}" if version.reason else
                "testing: it becomes active if it passes its test against the active version")
    if version.status == VersionStatus.VALIDATING and version.test_request is not None:
        return ("validating: it is playing one match against a random player; then a test "
                "against the active version, and it becomes active if it passes")
    if version.status == VersionStatus.REJECTED:
        return f"rejected: {version.reason}" if version.reason else "rejected"
    return str(version.status)


def version_status(user: AnyUser, version: BotVersion) -> dict[str, Any]:
    """What a page polls while a version validates: its status and verdict, and for its
    owner (and staff) a rejection's log's last lines."""
    rejected = version.status == VersionStatus.REJECTED
    tail = log_tail(version.log) if rejected and owner_or_staff(user, version.bot) else ""
    return {"id": version.pk, "status": version.status, "reason": version.reason,
            "done": version.status != VersionStatus.VALIDATING,
            "verdict": verdict(version), "log_tail": tail,
            "url": reverse("version", args=[version.pk])}


def with_log_tails(bots: list[Bot], shown: int = 3) -> list[Bot]:
    """The owner's bots, each rejected version among the ``shown`` latest given its
    ``log_tail`` (its logs read in one query, the rest left unread)."""
    rejected = [v for b in bots for v in list(b.versions.all())[:shown]
                if v.status == VersionStatus.REJECTED]
    logs = dict(BotVersion.objects.filter(pk__in=[v.pk for v in rejected])
                .values_list("pk", "log"))
    for v in rejected:
        v.log_tail = log_tail(logs.get(v.pk, ""))
    return bots


def uploaded(user: AnyUser, version_id: int | None) -> dict[str, Any] | None:
    """The banner after an upload: the version just uploaded (``user``'s own) and what
    became of it so far."""
    version = (BotVersion.objects.defer("archive").select_related("bot")
               .filter(pk=version_id, bot__owner_id=user.pk).first() if version_id else None)
    if version is None:
        return None
    return {"version": version, **version_status(user, version),
            "poll": reverse("version-status", args=[version.pk])}
