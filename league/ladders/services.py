"""Writes on ladders: creating matches (the doorbell rings after commit), cancelling them,
re-running a failed one, and placing a newly validated version on its ladder."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from league.bots.models import Bot, BotVersion
from league.ladders.models import (
    Ladder,
    LadderKind,
    Match,
    MatchKind,
    MatchStatus,
    Participant,
    Standing,
)
from league.ladders.ratings import Skill, new_version_skill
from league.logs import match_fields

log = logging.getLogger(__name__)


def new_seed() -> int:
    return secrets.randbelow(2**31)


def match_create(*, ladder: Ladder, kind: str, seed: int,
                 seats: Sequence[BotVersion | str]) -> Match:
    """A queued match with one participant per seat (a version, or a built-in player's name);
    its task is sent once the surrounding transaction commits."""
    match = Match.objects.create(ladder=ladder, kind=kind, seed=seed)
    Participant.objects.bulk_create([
        Participant(match=match, seat=seat, version=who if isinstance(who, BotVersion) else None,
                    builtin="" if isinstance(who, BotVersion) else who)
        for seat, who in enumerate(seats)])
    transaction.on_commit(lambda: match_enqueue(match_ids=[match.pk]))
    return match


def match_enqueue(*, match_ids: Iterable[int]) -> None:
    """Ring the doorbell for queued matches (a doubled message is harmless: claims are once)."""
    from league.ladders.tasks import run_match_task

    for match_id in match_ids:
        updated = Match.objects.filter(pk=match_id, status=MatchStatus.QUEUED).update(
            enqueued_at=timezone.now())
        if updated:
            run_match_task.delay(match_id)
            log.info("match %s: enqueued", match_id, extra=match_fields(match_id))


def matches_cancel_for_bot(*, bot: Bot, reason: str) -> int:
    """Cancel the bot's queued matches (running ones finish: their bots are already playing)."""
    return Match.objects.filter(status=MatchStatus.QUEUED,
                                participants__version__bot=bot).update(
        status=MatchStatus.CANCELLED, reason="cancelled", detail=reason,
        finished_at=timezone.now())


def match_rerun(*, match: Match) -> Match:
    """Queue a failed or cancelled match again from scratch (staff action)."""
    with transaction.atomic():
        updated = Match.objects.filter(
            pk=match.pk, status__in=[MatchStatus.FAILED, MatchStatus.CANCELLED]).update(
            status=MatchStatus.QUEUED, attempts=0, claim_token="", claimed_by="", reason="",
            detail="", heartbeat_at=None, started_at=None, finished_at=None)
        if updated:
            transaction.on_commit(lambda: match_enqueue(match_ids=[match.pk]))
    match.refresh_from_db()
    return match


def validation_match_create(*, version: BotVersion) -> Match:
    ladder = Ladder.objects.get(game=version.bot.game)
    seats: list[BotVersion | str] = [version]
    if ladder.kind == LadderKind.RATED:
        seats.append(ladder.validation_opponent)
        seed = new_seed()
    else:
        seed = ladder.seeds[0] if ladder.seeds else 0
    return match_create(ladder=ladder, kind=MatchKind.VALIDATION, seed=seed, seats=seats)


def standing_place(*, ladder: Ladder, version: BotVersion) -> Standing:
    """The new active version's row on the board: its bot's mu, sigma back at the start."""
    previous = (Standing.objects.filter(ladder=ladder, version__bot=version.bot)
                .exclude(version=version).order_by("-version__number").first())
    skill = new_version_skill(Skill(previous.mu, previous.sigma) if previous else None)
    standing, _ = Standing.objects.get_or_create(
        ladder=ladder, version=version, defaults={"mu": skill.mu, "sigma": skill.sigma})
    return standing


def open_matches(ladder: Ladder) -> Q:
    return Q(ladder=ladder, status__in=[MatchStatus.QUEUED, MatchStatus.RUNNING])
