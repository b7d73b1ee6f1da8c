"""Who may change a bot (its owner) and a tournament (its creator, and staff). Reading private
things is decided in the selectors. The competitions' services check the same again (the
pages call them too); here it is a 403 before anything else is looked at."""

from __future__ import annotations

from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request

from league.bots.models import Bot, BotVersion
from league.bots.selectors import is_owner, may_download_source, owner_or_staff, user_or_staff
from league.competitions.models import Tournament


def require_signed_in(request: Request) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated()


def require_owner(request: Request, bot: Bot, action: str) -> None:
    require_signed_in(request)
    if not is_owner(request.user, bot):
        raise PermissionDenied(f"only the owner of {bot.name!r} can {action}")


def require_source_access(request: Request, version: BotVersion) -> None:
    """The source is its owner's and staff's, and anyone's when the owner shares it."""
    if may_download_source(request.user, version.bot):
        return
    require_signed_in(request)
    raise PermissionDenied(f"the owner of {version.bot.name!r} does not share its source")


def require_owner_or_staff(request: Request, bot: Bot, action: str) -> None:
    require_signed_in(request)
    if not owner_or_staff(request.user, bot):
        raise PermissionDenied(f"only the owner of {bot.name!r} and staff can {action}")


def require_creator_or_staff(request: Request, tournament: Tournament, action: str) -> None:
    require_signed_in(request)
    if not user_or_staff(request.user, tournament.created_by_id):
        raise PermissionDenied(f"only the creator of {tournament.name!r} and staff can "
                               f"{action}")


def require_staff(request: Request, action: str) -> None:
    require_signed_in(request)
    if not request.user.is_staff:
        raise PermissionDenied(f"only staff can {action}")
