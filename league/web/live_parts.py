"""Parts of a page that follow what they show (a tournament, a challenge, a match): each is a
template of the site rendered on the server, sent again to the page's script (``live.js``)
only when its text changed."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe


def live_stamp(html: str) -> str:
    """A part of a live page as the poller compares it: its HTML without the CSRF token,
    which Django masks anew on every render."""
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def parts_render(request: HttpRequest, prefix: str, names: list[str],
                 context: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Each part ``web/<prefix>/_<name>.html`` rendered, with its stamp."""
    out = {}
    for name in names:
        html = render_to_string(f"web/{prefix}/_{name}.html", context, request=request)
        out[name] = {"html": html, "stamp": live_stamp(html)}
    return out


def parts_for_page(parts: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """The parts as the page's template writes them (their HTML is the site's own)."""
    return {name: {"html": mark_safe(part["html"]), "stamp": part["stamp"]}
            for name, part in parts.items()}


def parts_changed(parts: dict[str, dict[str, str]], request: HttpRequest
                  ) -> dict[str, dict[str, str]]:
    """The parts, each part's HTML left out where the page has it already: ``?known=``
    lists the page's ``name:stamp`` pairs."""
    known = dict(pair.partition(":")[::2] for pair in request.GET.get("known", "").split(",")
                 if ":" in pair)
    return {name: part if known.get(name) != part["stamp"] else {"stamp": part["stamp"]}
            for name, part in parts.items()}
