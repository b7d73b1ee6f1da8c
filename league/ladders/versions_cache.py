"""Versions unpacked on a worker's disk, keyed by their archive's sha256 (immutable, so a
cached folder never goes stale); each match copies its bots from here."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from league.bots.models import BotVersion
from league.bots.uploads import UPLOAD_LIMITS
from sandbox.archive import extract


def version_folder(version: BotVersion) -> Path:
    """The unpacked folder of ``version``, unpacking it now if this worker has not yet."""
    return cached_folder(version.sha256, lambda: version)


def cached_folder(sha256: str, version: Callable[[], BotVersion]) -> Path:
    """The unpacked folder of the version whose archive has this hash; ``version`` is called
    for the version (and its archive) only if this worker has not unpacked it yet."""
    cache = Path(settings.LEAGUE_VERSION_CACHE)
    final = cache / sha256
    if final.is_dir():
        return final
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=cache))
    try:
        # the rules its upload passed; a name this disk refuses is a BotPackageError
        the_version = version()
        extract(bytes(the_version.archive), staging / "tree", str(the_version),
                UPLOAD_LIMITS)
        try:
            (staging / "tree").rename(final)  # atomic: another worker may race us here
        except OSError:
            if not final.is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return final
