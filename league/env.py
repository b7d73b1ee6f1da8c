"""Typed readers for the environment: every setting comes from here, and a bad value stops
the process at start with the variable's name and what it should look like.

A setting may also come from a file: when ``NAME`` is unset and ``NAME_FILE`` names a file,
its content (surrounding whitespace stripped) is the value. That is how the swarm stack hands
over its secrets (docker/stack.yml): Docker mounts each at ``/run/secrets/<name>`` and the
service sets only the path, so the value is in no service spec and no ``docker inspect``, yet
every process of the container, ``docker exec`` ones included, reads the same settings."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}
N = TypeVar("N", int, float)


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    path = os.environ.get(f"{name}_FILE") if value is None else None
    if path:
        try:
            value = Path(path).read_text()
        except OSError as error:
            # A secret that is named but unreadable must stop the process: falling back to
            # the default would, for DATABASE_URL, quietly run the league on SQLite.
            raise ImproperlyConfigured(
                f"{name}_FILE={path!r}: cannot read it ({error.strerror})") from None
    return None if value is None else value.strip()


def env_str(name: str, default: str = "") -> str:
    value = _raw(name)
    return default if value is None or value == "" else value


def env_bool(name: str, default: bool = False) -> bool:
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in TRUE:
        return True
    if value.lower() in FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected one of 1/0, true/false, yes/no")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    return _number(name, default, minimum, int, "a whole number")


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    return _number(name, default, minimum, float, "a number")


def _number(name: str, default: N, minimum: N | None, parse: Callable[[str], N],
            expected: str) -> N:
    value = _raw(name)
    if value is None or value == "":
        return default
    try:
        number = parse(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected {expected}") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number}: must be at least {minimum}")
    return number


def env_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    value = env_str(name, default)
    if value not in choices:
        raise ImproperlyConfigured(
            f"{name}={value!r}: expected one of {', '.join(c or '(empty)' for c in choices)}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None or value == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_url(name: str, schemes: tuple[str, ...]) -> str:
    """A URL whose scheme is one of ``schemes``, or "" when unset."""
    value = env_str(name)
    if value and value.split("://", 1)[0] not in schemes:
        raise ImproperlyConfigured(
            f"{name}={value!r}: expected a URL starting with "
            f"{' or '.join(s + '://' for s in schemes)}")
    return value


RATE_PATTERN = re.compile(r"^\d+/(\d+)?(s|sec|second|m|min|minute|h|hour|d|day)$")


def env_rate(name: str, default: str) -> str:
    """A request rate such as ``60/min`` or ``5/15min`` (per s, min, hour or day)."""
    value = env_str(name, default)
    if not RATE_PATTERN.match(value):
        raise ImproperlyConfigured(f"{name}={value!r}: expected a rate like 60/min or 1000/day")
    return value


def env_path(name: str, default: Path) -> Path:
    value = env_str(name)
    return Path(value).expanduser().resolve() if value else default
