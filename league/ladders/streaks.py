"""Bots that keep crashing are disabled, and their owners told (issue 37).

A bot's ``crash_streak`` is its games in a row that ended in a crash forfeit (the bot exited
or was killed before the game ended), counted after a match's result is committed: a crash
adds one (one conditional UPDATE), and a game it played without one sets it back to 0 only
when the claim read a streak (``Seat.crash_streak``), so the common match writes nothing
for it. At ``LEAGUE_CRASH_STREAK_DISABLE`` the bot is disabled as staff would disable it
(``services.bot_disable``: off the board, its queued matches cancelled) and its owner told.

Counted outside the finishing transaction: it takes no bot row's lock beside the standings'
(two matches of one bot finishing at once cannot deadlock on it), and a count lost with a
process that dies between the two is one crash not counted. A game of the bot that ends
while another is being counted may be counted in either order ("in a row" is the order the
results were written)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db.models import F

from league.bots.models import Bot, DisabledBy
from league.ladders.kinds import kind_of
from league.ladders.services import bot_disable
from sandbox import ForfeitKind

if TYPE_CHECKING:
    from league.ladders.claiming import Assignment

log = logging.getLogger(__name__)


def streaks_count(match: Assignment, seats: list[dict[str, Any]]) -> None:
    """After ``match``'s result (``seats``: each seat's written columns) has committed.
    Never raises: the result is written, and a streak miscounted is not worth re-running
    the match for."""
    limit = settings.LEAGUE_CRASH_STREAK_DISABLE
    if not limit or not kind_of(match.kind).crash_streaks:
        return
    try:
        _count(match, seats, limit)
    except Exception:
        log.exception("match %s: crash streaks not counted", match.claim.match_id)


def _count(match: Assignment, seats: list[dict[str, Any]], limit: int) -> None:
    for seat, fields in zip(match.seats, seats, strict=True):
        if seat.bot_id is None:
            continue
        if fields.get("forfeit") == ForfeitKind.CRASH:
            Bot.objects.filter(pk=seat.bot_id).update(crash_streak=F("crash_streak") + 1)
            streak = Bot.objects.filter(pk=seat.bot_id).values_list("crash_streak",
                                                                    flat=True).first()
            if streak is not None and streak >= limit:
                _disable(seat.bot_id, streak, match.claim.match_id)
        elif seat.crash_streak:
            Bot.objects.filter(pk=seat.bot_id, crash_streak__gt=0).update(crash_streak=0)


def _disable(bot_id: int, streak: int, match_id: int) -> None:
    bot = Bot.objects.filter(pk=bot_id, disabled=False).first()
    if bot is None:
        return
    reason = f"it crashed {streak} games in a row (the last: match {match_id})"
    bot_disable(bot=bot, reason=reason, by=DisabledBy.LEAGUE)
    log.warning("bot %s disabled: %s", bot_id, reason)
