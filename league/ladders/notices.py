"""What the ladders tell a bot's owner (``league.notifications``): a version judged by its
validation match, a bot disabled. Public words only: a rejection's reason is the referee's
forfeit detail through ``public_text`` (and the wrong-game hint), never the version's log."""

from __future__ import annotations

import secrets

from django.urls import reverse

from league.bots.models import Bot, BotVersion, DisabledBy, VersionStatus
from league.notifications.events import notify, site_link
from league.notifications.models import EventKind
from league.redaction import public_text


def version_judged(version: BotVersion, bot: Bot) -> None:
    """In the finishing transaction: told once it commits."""
    link = site_link(reverse("version", args=[version.pk]))
    label = f"{bot.name} v{version.number}"
    data = {"bot": {"id": bot.pk, "name": bot.name, "game": bot.game},
            "version": {"id": version.pk, "number": version.number,
                        "status": str(version.status)}, "link": link}
    if version.status == VersionStatus.REJECTED:
        reason = public_text(version.reason)
        data["reason"] = reason
        notify(user_id=bot.owner_id, kind=EventKind.VERSION_REJECTED, about=str(version.pk),
               title=f"{label} was rejected", data=data,
               text=f"{label} ({bot.game}) was rejected by its validation match:\n\n"
                    f"{reason}\n\nSee {link}")
    elif version.status == VersionStatus.ACTIVE:
        notify(user_id=bot.owner_id, kind=EventKind.VERSION_VALIDATED, about=str(version.pk),
               title=f"{label} passed validation", data=data,
               text=f"{label} ({bot.game}) passed validation and now plays on its ladder.\n\n"
                    f"See {link}")
    elif version.status == VersionStatus.TESTING:  # an upload with a test
        notify(user_id=bot.owner_id, kind=EventKind.VERSION_VALIDATED, about=str(version.pk),
               title=f"{label} passed validation", data=data,
               text=f"{label} ({bot.game}) passed validation; it becomes active if it passes "
                    f"its test against the active version (you are told its verdict).\n\n"
                    f"See {link}")


def bot_disabled(bot: Bot, reason: str, *, by: DisabledBy) -> None:
    link = site_link(reverse("bot", args=[bot.pk]))
    reason = public_text(reason)
    # each disabling is told (the caller moves the row from enabled, once), so the key is
    # the bot's and a fresh token: disabled again after being enabled is a new event
    notify(user_id=bot.owner_id, kind=EventKind.BOT_DISABLED,
           about=f"{bot.pk}:{secrets.token_hex(6)}",
           title=f"{bot.name} was disabled", data={
               "bot": {"id": bot.pk, "name": bot.name, "game": bot.game},
               "reason": reason, "by": by.label, "link": link},
           text=f"{bot.name} ({bot.game}) was disabled by {by.label}: {reason}.\n\nIt plays "
                f"no more games {UNTIL[by]}.\n\nSee {link}")


UNTIL = {DisabledBy.STAFF: "until staff enable it again",
         DisabledBy.LEAGUE: "until a new version of it passes validation (upload one as "
                            "usual: it takes its place back)"}
