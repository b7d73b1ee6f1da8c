"""Writes on bots: the one upload path (pages, API and demo all call ``version_upload``), and
the owner's and staff's switches. An upload is checked whole before anything is stored."""

from __future__ import annotations

import hashlib
import re

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max

import games
from league.bots.models import Bot, BotVersion, VersionStatus
from league.bots.uploads import UPLOAD_LIMITS
from league.ladders.models import Ladder
from league.rate_limits import RateLimited, rate_hit
from sandbox import BotPackageError
from sandbox.archive import package_upload

VALIDATING_WAIT = 10
"""Seconds a refusal for too many versions validating suggests (a validation takes a few)."""
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


class UploadError(ValueError):
    """An upload refused before anything was stored; the message says what to change."""


def version_upload(*, owner: AbstractBaseUser, game: str, name: str, filename: str,
                   data: bytes, limited: bool = True) -> BotVersion:
    """Store a new version of ``owner``'s bot ``name`` (created on first upload) and queue its
    validation match. Raises ``UploadError`` with nothing stored, or ``RateLimited`` when the
    owner is over the upload rate or has too many versions waiting for validation
    (``limited=False``: the operator's own uploads, such as the demo's)."""
    if limited:
        _check_upload_limits(owner)
    ladder = _ladder_for(game)
    if not NAME_PATTERN.match(name):
        raise UploadError(f"bot name {name!r}: use 1-40 letters, digits, '_', '.' or '-', "
                          "starting with a letter or digit")
    try:
        archive, info = package_upload(filename, data, UPLOAD_LIMITS)
    except BotPackageError as error:
        raise UploadError(str(error)) from None
    from league.ladders.services import validation_match_create

    try:
        with transaction.atomic():
            bot = _bot_for_upload(owner, ladder.game, name)
            number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
            version = BotVersion.objects.create(
                bot=bot, number=number, sha256=hashlib.sha256(archive).hexdigest(),
                size=len(archive), language=info.language, entry=info.entry,
                filename=filename[:255], archive=archive)
            validation_match_create(version=version)
    except IntegrityError:
        raise UploadError(f"bot name {name!r} was just taken for {game}; try again or "
                          "choose another") from None
    return version


def _check_upload_limits(owner: AbstractBaseUser) -> None:
    rate_hit("upload", owner.pk)  # every attempt counts: checking a zip is work too
    waiting = BotVersion.objects.filter(bot__owner=owner,
                                        status=VersionStatus.VALIDATING).count()
    if waiting >= settings.LEAGUE_MAX_VALIDATING:
        raise RateLimited("validating", VALIDATING_WAIT,
                          f"{waiting} of your versions are waiting for validation")


def _ladder_for(game: str) -> Ladder:
    if game not in games.game_ids():
        raise UploadError(f"unknown game {game!r}; choose one of {', '.join(games.game_ids())}")
    ladder = Ladder.objects.filter(game=game, active=True).first()
    if ladder is None:
        raise UploadError(f"{game} has no open ladder; uploads for it are closed")
    return ladder


def _bot_for_upload(owner: AbstractBaseUser, game: str, name: str) -> Bot:
    bot = Bot.objects.select_for_update().filter(game=game, name__iexact=name).first()
    if bot is None:
        return Bot.objects.create(owner=owner, game=game, name=name)
    if bot.owner_id != owner.pk:
        raise UploadError(f"bot name {name!r} is taken for {game}; choose another")
    if bot.disabled:
        why = bot.disabled_reason or "no reason given"
        raise UploadError(f"bot {name!r} was disabled by staff ({why}); it takes no new "
                          "versions")
    return bot


def bot_retire(*, bot: Bot) -> Bot:
    """Take the bot off the board for good: no new matches; its history stays."""
    from league.ladders.services import matches_cancel_for_bot

    with transaction.atomic():
        Bot.objects.filter(pk=bot.pk).update(retired=True)
        BotVersion.objects.filter(bot=bot, status=VersionStatus.ACTIVE).update(
            status=VersionStatus.RETIRED)
        matches_cancel_for_bot(bot=bot, reason="the bot was retired by its owner")
    bot.refresh_from_db()
    return bot


def bot_set_public(*, bot: Bot, public: bool) -> Bot:
    Bot.objects.filter(pk=bot.pk).update(public=public)
    bot.refresh_from_db()
    return bot


def bot_disable(*, bot: Bot, reason: str) -> Bot:
    """Staff: the bot leaves the board and its queued matches are cancelled."""
    from league.ladders.services import matches_cancel_for_bot

    with transaction.atomic():
        Bot.objects.filter(pk=bot.pk).update(disabled=True, disabled_reason=reason[:200])
        matches_cancel_for_bot(bot=bot, reason=f"the bot was disabled by staff: {reason}")
    bot.refresh_from_db()
    return bot


def bot_enable(*, bot: Bot) -> Bot:
    Bot.objects.filter(pk=bot.pk).update(disabled=False, disabled_reason="")
    bot.refresh_from_db()
    return bot
