"""Structured logs: one JSON object per line, for a log collector to index and search.

Every record carries its time, level, logger, message and process; records about a match pass
``extra=match_fields(match_id, attempt)`` and so carry ``match`` and ``attempt`` as fields, not
only inside the text, so an operator can pull one match's whole story out of web, worker and
beat logs with one query (``match=1234``).
"""

from __future__ import annotations

import json
import logging
import os
import socket
from datetime import UTC, datetime
from typing import Any

FIELDS = ("match", "attempt", "worker", "ladder", "outcome", "ms")
"""Extra record attributes copied into the JSON object when present."""
HOST = socket.gethostname()


def match_fields(match_id: int, attempt: int | None = None, **more: Any) -> dict[str, Any]:
    """``extra=`` for a log call about one match (and one attempt at it)."""
    fields: dict[str, Any] = {"match": match_id, **more}
    if attempt is not None:
        fields["attempt"] = attempt
    return fields


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
            "host": HOST,
            "pid": os.getpid(),
        }
        for field in FIELDS:
            value = getattr(record, field, None)
            if value is not None:
                entry[field] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)
