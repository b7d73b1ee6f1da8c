"""Template helpers for the competitions' pages: points as tournaments write them, an
entry's side of a series."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timeuntil

from league.competitions.models import Entry
from league.web.competition_pages import SeriesLine

register = template.Library()


@register.filter
def half(value: float | None) -> str:
    """Points as tables write them: 2, 1½, ½ (other fractions with one decimal)."""
    if value is None:
        return ""
    whole, rest = divmod(float(value), 1)
    if rest == 0:
        return f"{whole:.0f}"
    if rest == 0.5:
        return "½" if whole == 0 else f"{whole:.0f}½"
    # a quarter (a drawn game's half in a two-game series' tie-break) is 0.25, not "0.2"
    return f"{round(float(value), 2):g}"


@register.filter
def points_for(line: SeriesLine | None, entry: Entry | None) -> str:
    """``entry``'s game points in the series so far (empty before its first game ends)."""
    if line is None or entry is None or not any(g.game.result in ("1-0", "0-1", "½-½")
                                                for g in line.games):
        return ""
    return half(line.points_of(entry))


@register.filter
def is_winner(line: SeriesLine | None, entry: Entry | None) -> bool:
    return bool(line and entry and line.view.winner and line.view.winner.pk == entry.pk)


@register.filter
def until(moment: datetime | None) -> str:
    """How long until ``moment``, as people say it: "under a minute", "3 hours, 5 minutes"."""
    if moment is None:
        return ""
    if moment - timezone.now() < timedelta(minutes=1):
        return "under a minute"
    return timeuntil(moment)
