"""Writes for the demo: its users, and its bots uploaded through ``version_upload`` like any
user's. Safe to run again and again: a bot whose latest version already holds the same
archive is left alone, and a changed source becomes a new version."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from league.bots.models import Bot, BotVersion
from league.bots.services import UploadError
from league.bots.uploads import UPLOAD_LIMITS
from league.demo.catalogue import DEMO_BOTS, DEMO_USERS, DemoBot
from league.ladders.models import Ladder
from league.ladders.services import version_upload
from sandbox import BotPackageError
from sandbox.archive import package_upload

Users = dict[str, AbstractBaseUser]


class Change(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"


@dataclass
class LadderReport:
    """What one run did on one ladder, and what it could not do."""

    title: str
    changes: list[Change] = field(default_factory=list)
    not_uploaded: int = 0
    problems: list[str] = field(default_factory=list)
    """Why bots were not uploaded, for the operator."""

    def summary(self) -> str:
        counts = Counter(self.changes)
        if counts[Change.CREATED] or counts[Change.UPDATED]:
            parts = [f"{counts[change]} {change}" for change in Change if counts[change]]
        elif self.changes:
            parts = [f"{len(self.changes)} demo bots, all up to date"]
        else:
            parts = []
        if self.not_uploaded:
            parts.append(f"{self.not_uploaded} not uploaded")
        return f"{self.title}: {', '.join(parts)}"


@dataclass
class DemoReport:
    users_created: list[str]
    ladders: list[LadderReport]


def demo_install(*, bots: Sequence[DemoBot] = DEMO_BOTS,
                 usernames: Sequence[str] = DEMO_USERS) -> DemoReport:
    """Create the demo users and upload every demo bot that is new or changed."""
    users, created = demo_users_create(usernames=usernames)
    by_game: dict[str, list[DemoBot]] = {}
    for bot in bots:
        by_game.setdefault(bot.game, []).append(bot)
    reports = [_ladder_install(game, game_bots, users) for game, game_bots in by_game.items()]
    return DemoReport(users_created=created, ladders=reports)


def _ladder_install(game: str, bots: Sequence[DemoBot], users: Users) -> LadderReport:
    ladder = Ladder.objects.filter(game=game, active=True).only("title").first()
    if ladder is None:
        return LadderReport(game, not_uploaded=len(bots),
                            problems=[f"no open ladder for {game}, so no demo bots on it"])
    report = LadderReport(ladder.title)
    for bot in bots:
        try:
            report.changes.append(demo_bot_upload(bot=bot, owner=users[bot.owner]))
        except (UploadError, BotPackageError, OSError) as error:
            # One bot that cannot go up (its name taken by a real user, say) must not keep
            # the rest of the demo, or the league's start, from going on.
            report.not_uploaded += 1
            report.problems.append(f"{bot.name} not uploaded: {error}")
    return report


def demo_users_create(*, usernames: Sequence[str]) -> tuple[Users, list[str]]:
    """The demo users by name, and which of them this call created. A new one gets no usable
    password: nobody signs in as a demo user."""
    user_model = get_user_model()
    users: Users = {}
    created: list[str] = []
    for name in usernames:
        user, is_new = user_model.objects.get_or_create(username=name)
        if is_new:
            user.set_unusable_password()
            user.save(update_fields=["password"])
            created.append(name)
        users[name] = user
    return users, created


def demo_bot_upload(*, bot: DemoBot, owner: AbstractBaseUser) -> Change:
    """Upload ``bot`` unless its latest version already holds this very archive."""
    data = bot.read()
    latest = (BotVersion.objects.filter(bot__game=bot.game, bot__name__iexact=bot.name,
                                        bot__owner=owner)
              .order_by("-number").only("sha256").first())
    if latest is not None and latest.sha256 == stored_sha256(bot.filename, data):
        return Change.UNCHANGED
    version = version_upload(owner=owner, game=bot.game, name=bot.name, filename=bot.filename,
                             data=data, limited=False)
    Bot.objects.filter(pk=version.bot_id).update(source_public=bot.source_public)
    return Change.CREATED if latest is None else Change.UPDATED


def stored_sha256(filename: str, data: bytes) -> str:
    """The sha256 the upload service will store: a single source file is stored wrapped in a
    (deterministic) zip, so the hash is of that zip, not of the file."""
    archive, _ = package_upload(filename, data, UPLOAD_LIMITS)
    return hashlib.sha256(archive).hexdigest()
