"""Login throttling: a small counter of failed attempts per username and address, in the
cache. Keyed on both so one attacker cannot lock a person out from everywhere, and one
address cannot try many passwords against a name."""

from __future__ import annotations

import hashlib

from django.core.cache import cache

MAX_FAILURES = 5
WINDOW_SECONDS = 15 * 60


def _key(username: str, address: str) -> str:
    # Hashed: usernames are user input and cache keys must be short and plain.
    digest = hashlib.sha256(f"{username.strip().lower()}\0{address}".encode()).hexdigest()
    return f"login-failures:{digest}"


def login_blocked(*, username: str, address: str) -> bool:
    return cache.get(_key(username, address), 0) >= MAX_FAILURES


def login_failed(*, username: str, address: str) -> None:
    key = _key(username, address)
    if cache.add(key, 1, WINDOW_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, WINDOW_SECONDS)


def login_succeeded(*, username: str, address: str) -> None:
    cache.delete(_key(username, address))
