"""A service's refusal as the pages show it, in one way for every form: the words (a capital
first, a full stop), the form's error or the page's message, and the status to answer with
(400 for a form to put right, 429 for a rate limit's refusal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from league.competitions.errors import CompetitionError
from league.rate_limits import RateLimited

T = TypeVar("T")


def sentence(text: str) -> str:
    """A service's refusal as a form shows it: a capital first, a full stop."""
    return f"{text[:1].upper()}{text[1:]}" + ("" if text.endswith(".") else ".")


def form_attempt(form: forms.Form, make: Callable[[dict[str, Any]], T], *,
                 refusal: type[Exception] | tuple[type[Exception], ...] = CompetitionError,
                 say: Callable[[str], str] = sentence) -> tuple[T | None, int]:
    """``make(form.cleaned_data)`` when the form is valid: what it made and 200. Otherwise
    None and the status to show the form again with: 400 when the form is invalid or the
    service raised ``refusal`` (its words, through ``say``, become the form's error), 429 when
    a rate limit refused (its sentence the form's error)."""
    if not form.is_valid():
        return None, 400
    try:
        return make(form.cleaned_data), 200
    except refusal as error:
        form.add_error(None, say(str(error)))
        return None, 400
    except RateLimited as refused:
        form.add_error(None, refused.sentence())
        return None, 429


def message_attempt(request: HttpRequest, act: Callable[[], T]) -> T | None:
    """``act()``, for an action with no form to show again: a ``CompetitionError`` becomes the
    page's error message and None is returned."""
    try:
        return act()
    except CompetitionError as error:
        messages.error(request, sentence(str(error)))
        return None
