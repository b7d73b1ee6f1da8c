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


class RotatingLog:
    """A process's output kept as a file of at most about ``max_bytes`` and the ``keep``
    files before it (``name.1`` the newest of them), the oldest deleted: a league that runs
    for months fills no disk (the demo's pace wrote ~2.8 GB of logs a month). Whole lines
    go to a file; a file starts on a new line and is over ``max_bytes`` only when one line
    is."""

    def __init__(self, path: os.PathLike[str] | str, max_bytes: int, keep: int) -> None:
        self.path = os.fspath(path)
        self.max_bytes = max_bytes
        self.keep = keep
        self._file = open(self.path, "ab")  # noqa: SIM115 (open for the object's life)
        self._size = self._file.tell()
        self._partial = b""

    def write(self, data: bytes) -> None:
        """Appends ``data``; an unfinished last line waits for its end (or for ``close``).
        A file takes the whole lines that fit; the rest start the next (a pipe read on a
        loaded machine can bring many files' worth at once)."""
        data = self._partial + data
        end = data.rfind(b"\n") + 1
        if end == 0 and len(data) < self.max_bytes:
            self._partial = data
            return
        if end == 0:  # one line longer than a whole file: cut it
            end = len(data)
        self._partial = data[end:]
        pos = 0
        while pos < end:
            room = self.max_bytes - self._size
            cut = data.rfind(b"\n", pos, pos + room) + 1  # after the last line that fits
            if cut == 0:  # not one more line fits
                if self._size:
                    self._rotate()
                    continue
                cut = data.find(b"\n", pos, end) + 1 or end  # longer than a file: alone
            self._file.write(data[pos:cut])
            self._size += cut - pos
            pos = cut
        self._file.flush()

    def _rotate(self) -> None:
        self._file.close()
        if self.keep:
            for n in range(self.keep - 1, 0, -1):  # name.1 -> name.2 ...; name.keep replaced
                if os.path.exists(f"{self.path}.{n}"):
                    os.replace(f"{self.path}.{n}", f"{self.path}.{n + 1}")
            os.replace(self.path, f"{self.path}.1")
        else:
            os.remove(self.path)
        self._file = open(self.path, "ab")  # noqa: SIM115
        self._size = 0

    def close(self) -> None:
        if self._partial:
            self._file.write(self._partial)
            self._partial = b""
        self._file.close()


def pump(fd: int, log: RotatingLog) -> None:
    """Copies what a child process writes to the pipe ``fd`` into ``log`` until every writer
    has closed it; then closes both."""
    try:
        while chunk := os.read(fd, 65536):
            log.write(chunk)
    finally:
        os.close(fd)
        log.close()
