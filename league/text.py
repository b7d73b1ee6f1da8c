"""One rule for text a person types that other people see: the names and notes of
tournaments, bots, users, tokens, a cancellation's or a moderation's reason.

Such text reaches other people's pages and terminals (``botleague tournament show``),
so it may hold only characters that show as themselves: no control character (an escape
sequence recolours, retitles or spoofs a terminal), no format character (zero-width ones
hide text; bidi overrides and isolates reorder it, so a name reads other than it is), no
surrogate, private-use or unassigned code point (nothing agreed to draw), and no line or
paragraph separator in a one-line field. A multi-line note keeps its new lines and tabs.
Text that shows as nothing (only spaces and blank fillers) is refused too.

The cost: zero-width joiners are format characters, so emoji sequences joined by one (a
family) and the joiners of some scripts are refused with the rest; a name can say the same
without them.

Forms and serializers take ``one_line`` or ``multi_line`` as a field validator; services
call ``text_problem`` and raise their own error with its words. Bot names keep their
stricter pattern (``league.bots.services.NAME_PATTERN``) and say these words first."""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError

RULE = "use visible characters only (no control, invisible or direction-changing characters)"
"""The refusal's words, the same on every page, in every API answer and service error."""

_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn"}
_SEPARATORS = {"Zl", "Zp"}
_NOTE_CONTROLS = {"\n", "\r", "\t"}  # a browser's textarea sends new lines as CR LF
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f"}
"""Letters and marks that draw nothing (Hangul fillers, the blank Braille pattern, the
combining grapheme joiner): allowed among other characters, not as the whole text."""


def text_problem(value: str, *, multiline: bool = False) -> str | None:
    """Why ``value`` may not be stored as a person's text, or None. Empty text passes: whether
    a field may be empty is the field's own rule."""
    for char in value:
        if multiline and char in _NOTE_CONTROLS:
            continue
        category = unicodedata.category(char)
        if category in _REFUSED or (category in _SEPARATORS and not multiline):
            return f"{RULE}; found {_describe(char)}"
    if value and all(char.isspace() or char in _BLANK for char in value):
        return f"{RULE}; this shows as nothing"
    return None


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    code = f"U+{ord(char):04X}"
    return f"{code} {name}" if name else code


def one_line(value: str) -> None:
    """A field validator (Django's forms and DRF's serializers alike) for a name or a reason."""
    _validate(value, multiline=False)


def multi_line(value: str) -> None:
    """A field validator for a note that may span lines (a tournament's description)."""
    _validate(value, multiline=True)


def _validate(value: str, *, multiline: bool) -> None:
    problem = text_problem(str(value), multiline=multiline)
    if problem:
        raise ValidationError(problem, code="invisible")
