"""The replay viewer: plain ES modules and a stylesheet in ``static/``, no build step.

Nothing here is Python but this note and where the files are: the league serves ``static/``
under ``/static/viewer/`` and the local runner inlines it into self-contained ``--html``
files (``replay.html_export``), so neither imports the other. One module per game lives in
``static/games/``; a new game adds one there.

The modules import each other by bare specifiers under ``SPECIFIER``
(``import { el } from "botleague-viewer/dom.js"``), never by relative path, and an import
map on the page says where they are: ``/static/viewer/`` on the site
(``league.web.csp.viewer_import_map``), ``data:`` URLs of each module's unmodified text in a
self-contained file. So the same files run in both, byte for byte, and each module has one
URL, hence one instance.
"""

from pathlib import Path, PurePosixPath

STATIC = Path(__file__).resolve().parent / "static"
SPECIFIER = "botleague-viewer/"
"""The prefix of every specifier the viewer's modules import each other by."""


def modules() -> list[PurePosixPath]:
    """Every module, as a path under ``static/`` (``dom.js``, ``games/stones.js``)."""
    return sorted(PurePosixPath(p.relative_to(STATIC).as_posix()) for p in STATIC.rglob("*.js"))
