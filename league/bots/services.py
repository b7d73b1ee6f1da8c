"""Writes on bots and their versions: storing a checked upload as a new immutable version,
and the owner's and staff's switches, on the rows alone. What a version does on a ladder (its
validation match, matches cancelled when a bot leaves) is ``league.ladders.services``'s, which
calls these."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max

from league.bots.models import Bot, BotVersion, DisabledBy, VersionStatus
from league.bots.uploads import UPLOAD_LIMITS
from league.text import text_problem
from sandbox import BotPackageError
from sandbox.archive import package_upload

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


class UploadError(ValueError):
    """An upload refused before anything was stored; the message says what to change."""


def version_create(*, owner: AbstractBaseUser, game: str, name: str, filename: str,
                   data: bytes, test_request: dict[str, Any] | None = None) -> BotVersion:
    """Check an upload whole and store it as a new version of ``owner``'s bot ``name``
    (created on its first upload). Raises ``UploadError`` with nothing stored.
    ``test_request``: an upload with a test (``BotVersion.test_request``)."""
    if problem := text_problem(name):  # the rule for all text first, in its words
        raise UploadError(f"bot name: {problem}")
    if not NAME_PATTERN.match(name):
        raise UploadError(f"bot name {name!r}: use 1-40 letters, digits, '_', '.' or '-', "
                          "starting with a letter or digit")
    try:
        archive, info = package_upload(filename, data, UPLOAD_LIMITS)
    except BotPackageError as error:
        raise UploadError(str(error)) from None
    try:
        with transaction.atomic():
            bot = _bot_for_upload(owner, game, name)
            number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
            return BotVersion.objects.create(
                bot=bot, number=number, sha256=hashlib.sha256(archive).hexdigest(),
                size=len(archive), language=info.language, entry=info.entry,
                filename=filename[:255], archive=archive, test_request=test_request)
    except IntegrityError:
        raise UploadError(f"bot name {name!r} was just taken for {game}; try again or "
                          "choose another") from None


def _bot_for_upload(owner: AbstractBaseUser, game: str, name: str) -> Bot:
    bot = Bot.objects.select_for_update().filter(game=game, name__iexact=name).first()
    if bot is None:
        return Bot.objects.create(owner=owner, game=game, name=name)
    if bot.owner_id != owner.pk:
        raise UploadError(f"bot name {name!r} is taken for {game}; choose another")
    if bot.disabled and bot.disabled_by != DisabledBy.LEAGUE:
        why = bot.disabled_reason or "no reason given"
        raise UploadError(f"bot {name!r} was disabled by staff ({why}); it takes no new "
                          "versions")
    return bot


def bot_mark_retired(*, bot: Bot) -> None:
    """The rows of a retired bot: it and its active version off the board for good."""
    Bot.objects.filter(pk=bot.pk).update(retired=True)
    BotVersion.objects.filter(bot=bot, status=VersionStatus.ACTIVE).update(
        status=VersionStatus.RETIRED)


def bot_mark_disabled(*, bot: Bot, reason: str, by: DisabledBy) -> None:
    # a streak of crashes starts again from 0 once it is enabled
    Bot.objects.filter(pk=bot.pk).update(disabled=True, disabled_reason=reason[:200],
                                         disabled_by=by, crash_streak=0)


def bot_set_source_public(*, bot: Bot, source_public: bool) -> Bot:
    """Whether others may download the bot's source (its logs stay its owner's)."""
    Bot.objects.filter(pk=bot.pk).update(source_public=source_public)
    bot.refresh_from_db()
    return bot


def bot_set_challengeable(*, bot: Bot, accepts: bool) -> Bot:
    Bot.objects.filter(pk=bot.pk).update(accepts_challenges=accepts)
    bot.refresh_from_db()
    return bot


def bot_enable(*, bot: Bot) -> Bot:
    Bot.objects.filter(pk=bot.pk).update(disabled=False, disabled_reason="", disabled_by="")
    bot.refresh_from_db()
    return bot
