"""The webhook signature (docs/notifications.md): HMAC-SHA256, under the person's secret, of
``<timestamp>.<body>``, sent as ``Botleague-Signature: v1=<hex>`` beside
``Botleague-Event-Id`` and ``Botleague-Timestamp``. The timestamp is signed so that a
captured delivery cannot be replayed later; the event id stays the same across retries, so a
receiver can ignore one it has already handled."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

SECRET_PREFIX = "whsec_"
VERSION = "v1"


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def body_of(payload: dict[str, Any]) -> bytes:
    """The JSON body, the same bytes on every attempt."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"{VERSION}={mac.hexdigest()}"


def headers(*, secret: str, event_id: str, kind: str, timestamp: int,
            body: bytes) -> dict[str, str]:
    return {"Botleague-Event-Id": event_id, "Botleague-Event": kind,
            "Botleague-Timestamp": str(timestamp),
            "Botleague-Signature": signature(secret, timestamp, body)}


def verify(secret: str, headers: dict[str, str], body: bytes, now: int,
           tolerance: int = 300) -> bool:
    """The receiver's side, as docs/notifications.md shows it (the tests use it too)."""
    try:
        timestamp = int(headers["Botleague-Timestamp"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, timestamp, body),
                               headers.get("Botleague-Signature", ""))
