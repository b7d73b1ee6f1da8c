"""The embedded default's broker: kombu's filesystem transport, with messages that appear
whole.

kombu creates a message file under its final name and only then writes into it, so a worker
polling the folder can take the file while it is still empty and die on the JSON error
(celery/kombu#1551; seen here within two minutes of ``./dev up`` once the worker polled every
5 ms). Here a message is written under a name no consumer reads and renamed into place,
which is atomic within a folder; and a message that still cannot be read is dropped with a
log line instead of stopping the worker (the database is the truth: the reaper re-sends a
queued match whose message was lost).
"""

from __future__ import annotations

import contextlib
import logging
import os
import uuid
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.json import dumps

log = logging.getLogger(__name__)


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        # kombu's name (its time first, so the folder sorts in sending order); the temporary
        # name starts with a dot, so no consumer's filter matches it.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".{name}.part")
        try:
            with open(partial, "wb") as out:
                out.write(dumps(payload).encode())
            os.replace(partial, final)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(partial)
            raise ChannelError(f"cannot add {final!r} to the queue: {error}") from error

    def _get(self, queue: str) -> Any:
        try:
            return super()._get(queue)
        except ValueError as error:  # the file was taken off the queue before it was read
            log.error("broker: dropped an unreadable message from queue %s (%s)", queue, error)
            raise Empty() from error


class Transport(filesystem.Transport):
    Channel = Channel
