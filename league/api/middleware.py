"""Refuse an API request body that is too large from its Content-Length, before any of it is
read. (The site's upload forms cap theirs in ``league.web.uploads`` and answer with the form.)"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from league.bots.services import UPLOAD_LIMITS, UPLOAD_MAX_BODY
from sandbox.archive import MIB


class UploadSizeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > UPLOAD_MAX_BODY:
            message = (f"the request is {length / MIB:.1f} MiB; a bot may be at most "
                       f"{UPLOAD_LIMITS.max_archive // MIB} MiB "
                       "(zip it without build outputs, data or .git)")
            # the server closes the connection on the unread body
            return JsonResponse({"detail": message}, status=413)
        return self.get_response(request)
