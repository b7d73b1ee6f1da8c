"""Writes on ladders: a bot's versions joining (the upload and its validation match) and
leaving (retired, disabled: queued matches cancelled), creating matches (the doorbell rings
after commit), re-running a failed one, and placing a newly validated version on its ladder."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

import games
from league.bots.models import Bot, BotVersion, DisabledBy, VersionStatus
from league.bots.services import (
    UploadError,
    bot_enable,
    bot_mark_disabled,
    bot_mark_retired,
    version_create,
)
from league.ladders import notices
from league.ladders.kinds import COMPETITION_KINDS, queue_of
from league.ladders.lifecycle import (
    CANCELLED,
    QUEUED,
    match_enqueue,
    match_move,
    matches_send,
)
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
from league.ladders.seasons import season_boundary
from league.rate_limits import RateLimited, rate_hit

VALIDATING_WAIT = 10
"""Seconds a refusal for too many versions validating suggests (a validation takes a few)."""


def version_upload(*, owner: AbstractBaseUser, game: str, name: str, filename: str,
                   data: bytes, limited: bool = True,
                   test_request: dict[str, Any] | None = None) -> BotVersion:
    """The one upload path (pages, API and demo): store a new version of ``owner``'s bot
    ``name`` (created on its first upload) and queue its validation match. Raises
    ``UploadError`` with nothing stored, or ``RateLimited`` when the owner is over the upload
    rate or has too many versions waiting for validation (``limited=False``: the operator's
    own uploads, such as the demo's). ``test_request``: an upload with a test, whose checks
    are ``versiontests.uploads``'s (validated, it waits for its test instead of going
    active)."""
    if limited:
        rate_hit("upload", owner.pk)  # every attempt counts: checking a zip is work too
    if game not in games.game_ids():
        raise UploadError(f"unknown game {game!r}; choose one of {', '.join(games.game_ids())}")
    if not Ladder.objects.filter(game=game, active=True).exists():
        raise UploadError(f"{game} has no open ladder; uploads for it are closed")
    with transaction.atomic():
        if limited:
            _check_waiting(owner)
        version = version_create(owner=owner, game=game, name=name, filename=filename,
                                 data=data, test_request=test_request)
        validation_match_create(version=version)
    return version


def _check_waiting(owner: AbstractBaseUser) -> None:
    """``RateLimited`` if the owner has ``LEAGUE_MAX_VALIDATING`` versions waiting. Counted
    under a lock of the owner's row, held until the caller's transaction stores the new
    version: uploads landing together in several processes once all counted the same few
    and all went in (on SQLite the IMMEDIATE transaction serialises them already)."""
    get_user_model().objects.select_for_update().filter(pk=owner.pk).exists()
    waiting = BotVersion.objects.filter(bot__owner=owner,
                                        status=VersionStatus.VALIDATING).count()
    if waiting >= settings.LEAGUE_MAX_VALIDATING:
        raise RateLimited("validating", VALIDATING_WAIT,
                          f"{waiting} of your versions are waiting for validation")


def bot_retire(*, bot: Bot) -> Bot:
    """Take the bot off the board for good: no new matches; its history stays."""
    with transaction.atomic():
        bot_mark_retired(bot=bot)
        matches_cancel_for_bot(bot=bot, reason="the bot was retired by its owner")
    bot.refresh_from_db()
    return bot


def bot_disable(*, bot: Bot, reason: str, by: DisabledBy = DisabledBy.STAFF) -> Bot:
    """Staff (or ``by`` the league, for a bot that keeps crashing: ``streaks``): the bot
    leaves the board, its queued matches are cancelled, and its owner is told, once: a bot
    disabled already only has its reason changed."""
    with transaction.atomic():
        was = Bot.objects.select_for_update().filter(pk=bot.pk).values_list(
            "disabled", flat=True).first()
        bot_mark_disabled(bot=bot, reason=reason, by=by)
        matches_cancel_for_bot(bot=bot, reason=f"the bot was disabled by {by.label}: {reason}")
        bot.refresh_from_db()
        if was is False:
            notices.bot_disabled(bot, reason, by=by)
    return bot


def new_seed() -> int:
    return secrets.randbelow(2**31)


def match_create(*, ladder: Ladder, kind: str, seed: int,
                 seats: Sequence[BotVersion | str], options: dict[str, Any] | None = None,
                 limits: dict[str, Any] | None = None) -> Match:
    """A queued match with one participant per seat (a version, or a built-in player's name),
    on the ladder's options and limits unless given its own; its task is sent once the
    surrounding transaction commits."""
    [match] = matches_create(ladder=ladder, kind=kind, games=[(seed, seats)], options=options,
                             limits=limits)
    return match


def matches_create(*, ladder: Ladder, kind: str,
                   games: Sequence[tuple[int, Sequence[BotVersion | str]]],
                   options: dict[str, Any] | None = None,
                   limits: dict[str, Any] | None = None) -> list[Match]:
    """``match_create`` for several ``(seed, seats)`` of one ladder at once
    (``ladders_matches_create``)."""
    return ladders_matches_create(kind=kind, games=[(ladder, seed, seats) for seed, seats in games],
                                  options=options, limits=limits)


def ladders_matches_create(*, kind: str,
                           games: Sequence[tuple[Ladder, int, Sequence[BotVersion | str]]],
                           options: dict[str, Any] | None = None,
                           limits: dict[str, Any] | None = None) -> list[Match]:
    """Matches of ``kind`` for several ``(ladder, seed, seats)``: two inserts, whatever their
    number and ladders (matchmaking makes every ladder's pairings of a tick so), stamped as
    enqueued by the same statement, and their messages sent once the transaction commits."""
    if not games:
        return []
    now = timezone.now()
    matches = [Match(ladder=ladder, kind=kind, seed=seed, options=options, limits=limits,
                     enqueued_at=now) for ladder, seed, _ in games]
    _insert(Match, matches)
    _insert(Participant, [
        Participant(match=match, seat=seat, version=who if isinstance(who, BotVersion) else None,
                    builtin="" if isinstance(who, BotVersion) else who)
        for match, (_, _, seats) in zip(matches, games, strict=True)
        for seat, who in enumerate(seats)])
    transaction.on_commit(lambda: matches_send(match_ids=[m.pk for m in matches],
                                               queue=queue_of(kind)))
    return matches


def _insert(model: type[Match | Participant], rows: Sequence[Match | Participant]) -> list[int]:
    """``bulk_create`` without the ORM's query building (most of what a tick's inserts cost
    in this process): the model's own defaults and conversions, a statement per batch as
    large as the database takes; the new ids, in order."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    one = f"({', '.join(['%s'] * len(fields))})"
    size = min(connection.ops.bulk_batch_size(fields, rows) or 1, 30_000 // len(fields))
    ids = []
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            batch = rows[start:start + size]
            cursor.execute(
                f"INSERT INTO {model._meta.db_table} ({columns}) "
                f"VALUES {', '.join([one] * len(batch))} RETURNING id",
                [f.get_db_prep_save(f.pre_save(row, True), connection)
                 for row in batch for f in fields])
            ids += [pk for (pk,) in cursor.fetchall()]
    for row, pk in zip(rows, ids, strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, connection.alias
    return ids


def matches_cancel_for_bot(*, bot: Bot, reason: str) -> int:
    """Cancel the bot's queued ladder and validation matches (running ones finish: their
    bots are already playing). Its tournament games are its tournament's: a frozen version
    plays them out, and a disabled bot's games are lost (``competitions.results``)."""
    return match_move(Match.objects.filter(status__open=True, status=QUEUED,
                                           participants__version__bot=bot)
                      .exclude(kind__in=COMPETITION_KINDS),
                      CANCELLED, reason="cancelled", detail=reason, finished_at=timezone.now())


def match_rerun(*, match: Match) -> Match:
    """Queue a failed or cancelled match again from scratch (staff action)."""
    with transaction.atomic():
        updated = match_move(
            Match.objects.filter(pk=match.pk, status__in=[MatchStatus.FAILED, CANCELLED]),
            QUEUED, attempts=0, claim_token="", claimed_by="", reason="", detail="",
            heartbeat_at=None, started_at=None, finished_at=None)
        if updated:
            transaction.on_commit(lambda: match_enqueue(match_ids=[match.pk],
                                                        queue=queue_of(match.kind)))
            if match.kind == MatchKind.LADDER:
                # a board kept by matchmaking watches the matches it saw open or made; this
                # one it may not see open, so its versions' standings say to read them again
                Standing.objects.filter(
                    ladder_id=match.ladder_id, version__participations__match=match,
                ).update(updated_at=timezone.now())
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


def version_make_active(*, version: BotVersion, bot: Bot, ladder: Ladder) -> Standing:
    """``version`` becomes ``bot``'s active version (the one it had retires) and takes its
    place on ``ladder``; its standing. In the caller's transaction, with ``version``'s
    and ``bot``'s rows locked (a validation's verdict, a passed version test)."""
    if bot.active_version_id and bot.active_version_id != version.pk:
        BotVersion.objects.filter(pk=bot.active_version_id, status=VersionStatus.ACTIVE).update(
            status=VersionStatus.RETIRED)
    version.status = VersionStatus.ACTIVE
    version.save(update_fields=["status", "reason", "log", "validated_at"])
    Bot.objects.filter(pk=bot.pk).update(active_version=version)
    bot.active_version_id = version.pk
    if bot.disabled and bot.disabled_by == DisabledBy.LEAGUE:
        # disabled for crashing: a version that passed validation is the fix it waited for
        bot_enable(bot=bot)
    return standing_place(ladder=ladder, version=version)


def standing_place(*, ladder: Ladder, version: BotVersion) -> Standing:
    """The new active version's row on the board: its bot's mu, sigma back at the start."""
    previous = (Standing.objects.filter(ladder=ladder, version__bot=version.bot)
                .exclude(version=version).order_by("-version__number").first())
    skill = new_version_skill(Skill(previous.mu, previous.sigma) if previous else None)
    standing, _ = Standing.objects.get_or_create(
        ladder=ladder, version=version, defaults={"mu": skill.mu, "sigma": skill.sigma,
                                                  "since_match": season_boundary(ladder)})
    return standing

