"""The upload's limits (``sandbox.archive.UPLOAD_LIMITS``, which the terminal's ``submit``
checks too) and the one gate every upload request passes, pages and API alike.

A request whose declared length is over ``MAX_BODY`` is answered 413 before a byte of its body
is read; a request body without a declared length (chunked) is answered 411, since Django
would read it as empty. Everything else about an upload (the archive's rules, the version,
its validation) is ``league.ladders.services.version_upload``'s.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from sandbox.archive import ENTRY_POINTS, MIB, UPLOAD_LIMITS

UPLOAD_HELP = (f"{', '.join(ENTRY_POINTS)}, or a zip holding one of them "
               f"({UPLOAD_LIMITS.max_archive // MIB} MiB at most)")
"""What may be uploaded, as the upload form and the API's schema say it."""
MAX_BODY = UPLOAD_LIMITS.max_archive + 256 * 1024
"""The largest request body an upload may come in: the archive cap plus room for the form's
other fields and the multipart framing."""


def too_large_message(length: int) -> str:
    return (f"The upload is over {UPLOAD_LIMITS.max_archive // MIB} MiB: a bot may be at most "
            f"{UPLOAD_LIMITS.max_archive // MIB} MiB, sent in a request of at most "
            f"{MAX_BODY / MIB:.2f} MiB, and this request is {length / MIB:.1f} MiB. Zip it "
            "without build outputs, data or .git.")


NO_LENGTH = ("The request has no Content-Length (a chunked body); send the upload with its "
             "length, as browsers and botleague submit do.")


class UploadSizeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return self.get_response(request)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > MAX_BODY:  # the server closes the connection on the unread body
            return _refusal(request, too_large_message(length), 413)
        if not length and "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            return _refusal(request, NO_LENGTH, 411)
        return self.get_response(request)


def _refusal(request: HttpRequest, message: str, status: int) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=status)
    # the site's error page by its template's name (the web app is above this one)
    return render(request, "web/error.html", {"title": "Upload refused", "message": message},
                  status=status)
