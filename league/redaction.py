"""Text that everyone may read is written through ``public_text``: no server path in it.

Reasons and details of matches and versions are public (anyone reads a match page), and they
are made from messages of the sandbox and the operating system, which name files. The
sandbox's own messages name bots by label, not by path; this is the second line of defence,
for an ``OSError``'s file name or a message nobody thought of. Logs and compiler output never
come here: they are private to the bot's owner and staff, and stored apart.
"""

from __future__ import annotations

import re
import tempfile
from functools import cache
from pathlib import Path

from django.conf import settings

HIDDEN = "<server path>"


@cache
def _server_paths() -> re.Pattern[str]:
    """Every folder of this machine that a message could name, longest first."""
    from sandbox.runtime import cache_root

    roots = {str(settings.DATA_DIR), str(settings.BASE_DIR), str(settings.LEAGUE_VERSION_CACHE),
             str(cache_root()), tempfile.gettempdir(), str(Path.home())}
    roots |= {str(Path(r).resolve()) for r in roots}
    alternatives = "|".join(re.escape(r.rstrip("/")) for r in sorted(roots, key=len,
                                                                     reverse=True) if r != "/")
    # a root, then the rest of the path up to a quote, a space or the end
    return re.compile(rf"(?:{alternatives})(?![\w.-])(?:/[^\s'\"]*)?")


def public_text(text: str, limit: int = 2000) -> str:
    """``text`` with every server path replaced, cut to ``limit`` characters."""
    return _server_paths().sub(HIDDEN, text)[:limit]
