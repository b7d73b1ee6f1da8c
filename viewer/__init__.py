"""The replay viewer: plain ES modules and a stylesheet in ``static/``, no build step.

Nothing here is Python but this note and where the files are: the league serves ``static/``
under ``/static/viewer/`` and the local runner inlines it into self-contained ``--html``
files (``replay.html_export``), so neither imports the other. One module per game lives in
``static/games/``; a new game adds one there.
"""

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
