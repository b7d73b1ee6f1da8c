"""Uploads capped before they reach memory: a declared length over the cap is refused
unread, and a body without one (chunked) is cut off as soon as it passes the cap."""

from __future__ import annotations

from typing import Any

from django.core.files.uploadhandler import MemoryFileUploadHandler, StopUpload
from django.http import HttpRequest

from league.bots.services import UPLOAD_MAX_BODY as MAX_BODY


class CappedUploadHandler(MemoryFileUploadHandler):
    """Keeps a file in memory only while the whole body stays under ``MAX_BODY``."""

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.received = 0
        self.cut = False

    def handle_raw_input(self, input_data: Any, META: Any, content_length: int,
                         boundary: Any, encoding: str | None = None) -> None:
        # Always keep the file in memory (never a temporary file): the count below caps it.
        self.activated = True

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        if self.received > MAX_BODY:
            self.cut = True
            raise StopUpload(connection_reset=True)
        return super().receive_data_chunk(raw_data, start)


def cap_upload(request: HttpRequest) -> CappedUploadHandler | None:
    """Install the capped handler; None when the declared length is already over the cap."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if declared > MAX_BODY:
        return None
    handler = CappedUploadHandler(request)
    request.upload_handlers = [handler]
    return handler
