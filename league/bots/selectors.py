"""Who may see what of a bot, and the getters that apply it: the one rule for pages, the API
and the replay viewer alike.

Every bot is public: its page, versions, ratings, matches and replays (a bot that plays on a
public ladder is seen by those it plays). What is private is its **code** and its **logs**:
the source may be downloaded by its owner and staff, and by anyone when the owner says so
(``Bot.source_public``, off by default); its logs (what it wrote on stderr, a compiler's
output) are its owner's and staff's only, whatever that says."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404

from league.bots.models import Bot, BotVersion

AnyUser = AbstractBaseUser | AnonymousUser


def user_or_staff(user: AnyUser, user_id: int | None) -> bool:
    """The one rule "its owner or staff": whether ``user`` is signed in and is the user
    ``user_id`` (a bot's owner, a tournament's creator) or staff."""
    return bool(user.is_authenticated and (user.is_staff or user_id == user.pk))


def is_owner(user: AnyUser, bot: Bot) -> bool:
    """The one rule "its owner": acting as the owner (changing, retiring, entering, playing
    it) is the owner's alone; staff moderate in the admin, not as the owner. Pages answer a
    stranger 404, the API 403, from this same rule."""
    return bool(user.is_authenticated and bot.owner_id == user.pk)


def owner_or_staff(user: AnyUser, bot: Bot) -> bool:
    """Whether ``user`` may read ``bot``'s logs (and always its source)."""
    return user_or_staff(user, bot.owner_id)


def may_download_source(user: AnyUser, bot: Bot) -> bool:
    return bot.source_public or owner_or_staff(user, bot)


def bot_get(*, user: AnyUser, bot_id: int) -> Bot:
    """The bot, or 404 when there is none."""
    bot = (Bot.objects.select_related("owner__profile", "active_version")
           .defer("active_version__archive", "active_version__log").filter(pk=bot_id).first())
    if bot is None:
        raise Http404(f"no bot {bot_id}; bots are listed at /api/bots/")
    return bot


def version_get(*, user: AnyUser, version_id: int, with_archive: bool = False) -> BotVersion:
    """The version, or 404 when there is none."""
    versions = BotVersion.objects.select_related("bot__owner__profile")
    if not with_archive:
        versions = versions.defer("archive")
    version = versions.filter(pk=version_id).first()
    if version is None:
        raise Http404(f"no version {version_id}")
    return version
