"""A Content-Security-Policy on every response: scripts, styles and everything else only from
this site, no inline script, no framing. Pages pass data to scripts with ``json_script``.

One inline script is allowed, by its hash: the replay viewer's import map (a
``<script type="importmap">`` cannot be loaded from a file). Its text is made here, once, by
``viewer_import_map``: the match page writes that text and the policy hashes that text, so
the two cannot differ.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static

import viewer

POLICY = ("default-src 'self'; script-src 'self' {import_map}; style-src 'self'; "
          "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'none'")
# Django's admin writes a few style attributes; it is staff-only, so it gets inline styles.
ADMIN_POLICY = POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


def viewer_import_map() -> str:
    """The text of the match page's import map: the viewer's bare specifiers
    (``botleague-viewer/dom.js``) resolve to the files the site serves under
    ``/static/viewer/``. A prefix mapping, so a new module needs no new entry."""
    text = json.dumps({"imports": {viewer.SPECIFIER: static("viewer/")}}, sort_keys=True)
    # Static URLs hold no "<"; escaped anyway, so no setting can end the element early.
    return text.replace("<", "\\u003c")


def script_hash(text: str) -> str:
    """A CSP source allowing exactly the inline script whose text is ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def policy_for(path: str) -> str:
    template = ADMIN_POLICY if path.startswith("/admin/") else POLICY
    return template.format(import_map=script_hash(viewer_import_map()))


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", policy_for(request.path))
        return response
