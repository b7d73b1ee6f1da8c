"""Small template helpers for the site's pages."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist

register = template.Library()


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


@register.filter
def get_item(mapping: dict, key: object) -> object:
    return mapping.get(key)


@register.filter
def div(value: float, by: float) -> float | None:
    return value / by if by else None
