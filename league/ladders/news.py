"""Telling the web server that a match moved, so a page parked on it (``league.parking``)
wakes at once: a Redis ``PUBLISH`` on the match's channel, sent by the worker after a move is
published or the match's status changed.

Only a hint: the web server also reads every parked match's row on a short interval
(``league/waiting.py``), so a message lost (Redis restarted, or the embedded default, which
has no Redis) delays a page by at most that interval and never loses what happened."""

from __future__ import annotations

import functools
import logging

import redis
from django.conf import settings

log = logging.getLogger(__name__)

CHANNEL = "botleague:match:"
"""A match's channel is this and its id; the web server subscribes to the pattern."""


@functools.cache
def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2,
                                socket_timeout=2, health_check_interval=30)


def match_moved(match_id: int) -> None:
    """Tell parked pages that ``match_id`` moved (after the change was committed)."""
    if not settings.REDIS_URL:
        return
    try:
        _client().publish(f"{CHANNEL}{match_id}", b"")
    except redis.RedisError:  # the web server's own reads find the change a moment later
        log.warning("match %s: its news could not be published", match_id, exc_info=True)
