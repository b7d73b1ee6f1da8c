"""Who may see what of a bot, and the getters that apply it: the one rule for pages, the API
and the replay viewer alike.

A public bot is seen by everyone; a private one by its owner and staff. A bot's logs (what it
wrote on stderr, a compiler's output) and its source are its owner's and staff's whatever the
bot's visibility."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404

from league.bots.models import Bot, BotVersion

AnyUser = AbstractBaseUser | AnonymousUser


def owner_or_staff(user: AnyUser, bot: Bot) -> bool:
    """Whether ``user`` may read ``bot``'s logs and source (and see it when it is private)."""
    return bool(user.is_authenticated and (user.is_staff or bot.owner_id == user.pk))


def bots_seen_by(user: AnyUser) -> QuerySet[Bot]:
    bots = Bot.objects.all()
    if user.is_authenticated and user.is_staff:
        return bots
    if user.is_authenticated:
        return bots.filter(Q(public=True) | Q(owner_id=user.pk))
    return bots.filter(public=True)


def bot_get(*, user: AnyUser, bot_id: int) -> Bot:
    """The bot, or 404 when there is none or it is private and not ``user``'s to see."""
    bot = (bots_seen_by(user).select_related("owner__profile", "active_version")
           .defer("active_version__archive", "active_version__log").filter(pk=bot_id).first())
    if bot is None:
        raise Http404(f"no bot {bot_id} (or it is private); bots are listed at /api/bots/")
    return bot


def version_get(*, user: AnyUser, version_id: int, with_archive: bool = False) -> BotVersion:
    """The version, or 404 when there is none or its bot is not ``user``'s to see."""
    versions = BotVersion.objects.select_related("bot__owner__profile")
    if not with_archive:
        versions = versions.defer("archive")
    version = versions.filter(pk=version_id).first()
    if version is None or not (version.bot.public or owner_or_staff(user, version.bot)):
        raise Http404(f"no version {version_id} (or its bot is private)")
    return version
