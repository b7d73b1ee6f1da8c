"""Small template helpers for the site's pages."""

from __future__ import annotations

import functools
from datetime import timedelta
from urllib.parse import quote

from django import template
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.urls import get_script_prefix, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.errors import UnknownGameError
from games.registry import game_class
from league.competitions.recurring import duration_words
from league.ladders.queues import wait_words
from league.ladders.ratings import is_provisional
from league.ladders.reasons import reason_words
from league.ladders.selectors import BoardRow
from league.web.csp import viewer_import_map

register = template.Library()


@register.simple_tag
def viewer_import_map_script() -> SafeString:
    """The viewer's ``<script type="importmap">``, its text exactly what the site's
    Content-Security-Policy allows by hash (``league.web.csp``): written as is, unescaped,
    since a single changed character would make the browser refuse it."""
    return format_html('<script type="importmap">{}</script>', mark_safe(viewer_import_map()))


@register.filter
def person(user: User | None) -> str:
    """A user's display name, else their username (escaped by the template like any text)."""
    if user is None:
        return ""
    try:
        name = user.profile.display_name
    except ObjectDoesNotExist:
        name = ""
    return name or user.get_username()


@register.filter
def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


@register.filter(name="wait_words")
def wait_words_filter(seconds: float | None) -> str:
    """A guessed wait in words (``ladders.queues.wait_words``)."""
    return wait_words(seconds)


@register.filter
def provisional(sigma: float | None) -> bool:
    """Whether a rating of this sigma is shown as provisional (``ratings.is_provisional``
    at ``settings.LEAGUE_PROVISIONAL_SIGMA``)."""
    return sigma is not None and is_provisional(sigma, settings.LEAGUE_PROVISIONAL_SIGMA)


@register.filter
def get_item(mapping: dict, key: object) -> object:
    return mapping.get(key)


@register.filter
def div(value: float, by: float) -> float | None:
    return value / by if by else None


@register.filter
def fixed(value: float | None, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals, as ``floatformat`` writes it for this site (no
    thousands separator, a dot; a half rounds to even where floatformat rounds it up), at a
    fraction of its cost: a board shows hundreds a page."""
    if value is None or value == "":
        return ""
    try:
        text = f"{float(value):.{int(digits)}f}"
    except (TypeError, ValueError):
        return ""
    return text[1:] if text.startswith("-") and not float(text) else text  # no "-0.0"


@register.filter
def link(value: object, name: str) -> str:
    """The path of URL ``name`` for its one argument, an id or a username
    (``{{ row.bot_id|link:"bot" }}``): what ``{% url %}`` gives, built from the pattern
    reversed once per URL name instead of a ``reverse()`` per row."""
    prefix, suffix = _url_parts(name, get_script_prefix())
    return f"{prefix}{quote(str(value), safe=_PATH_SAFE)}{suffix}"


_MARK = 918273645
_PATH_SAFE = "!$&'()*+,;=/~:@"
"""What ``reverse()`` leaves unquoted in a path argument."""


@functools.lru_cache(maxsize=64)
def _url_parts(name: str, script_prefix: str) -> tuple[str, str]:
    prefix, _, suffix = reverse(name, args=[_MARK]).partition(str(_MARK))
    return prefix, suffix


@register.filter
def board_bot(row: BoardRow) -> str:
    """A board row's bot: its name linked to its page, and the version. Escaped as template
    text is; a filter, not an include, for speed."""
    name = format_html('<a href="{}">{}</a>', link(row.bot_id, "bot"), row.bot)
    return format_html("{} <small>v{}</small>", name, row.version)


def _shown(trend: float) -> float:
    """The trend as written (one decimal), so a change too small to show gets no arrow."""
    return round(trend, 1)


@register.filter
def trend_class(trend: float | None) -> str:
    if trend is None or _shown(trend) == 0:
        return ""
    return "up" if trend > 0 else "down"


@register.filter
def trend_text(trend: float | None) -> str:
    """A 7-day trend as the board shows it: ▲ +1.2, ▼ -0.4, or – with no match in the
    window."""
    if trend is None:
        return "–"
    if _shown(trend) == 0:
        return "0.0"
    return ("▲ +" if trend > 0 else "▼ ") + fixed(trend, 1)


@register.filter
def game_title(game_id: str) -> str:
    """A game as people name it (``g2048`` → 2048); an unknown id as it is."""
    try:
        return game_class(game_id).title
    except UnknownGameError:
        return game_id


@register.filter
def reason(code: str) -> str:
    """A match's ending in the glossary's words (``league.ladders.reasons``)."""
    return reason_words(code)


@register.filter(name="duration_words")
def duration_words_filter(value: timedelta | None) -> str:
    """A length in words: "15 minutes", "week", "2 days"."""
    return duration_words(value) if value else ""
