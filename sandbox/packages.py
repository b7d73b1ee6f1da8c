"""Bot packages: a single source file, a folder or a zip, turned into a checked directory.

The entry point is chosen by file name (``main.py``, ``main.js``, ``main.cpp``); anything
ambiguous or unsafe is refused with a ``BotPackageError`` before a match starts. A package
is identified by the SHA-256 of its files so compiled code can be cached by content.
"""

from __future__ import annotations

import hashlib
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from sandbox.archive import (
    ENTRY_POINTS,
    LOCAL_LIMITS,
    SKIPPED_NAMES,
    SOURCE_SUFFIXES,
    extract,
    make_readable,
    only_entry,
    wrap_source,
)
from sandbox.errors import BotPackageError

BUILTIN_PREFIX = "builtin:"


@dataclass(frozen=True)
class BotSpec:
    """What the caller names: a path (file, folder, zip) or ``builtin:NAME``."""

    source: str
    label: str = ""

    @property
    def is_builtin(self) -> bool:
        return self.source.startswith(BUILTIN_PREFIX)

    @property
    def builtin_name(self) -> str:
        return self.source[len(BUILTIN_PREFIX):]

    @property
    def name(self) -> str:
        if self.label:
            return self.label
        if self.is_builtin:
            return self.source
        return Path(self.source).name or self.source


@dataclass(frozen=True)
class BotPackage:
    """A checked package unpacked in ``root`` (read-only for the bot), ready to run."""

    spec: BotSpec
    root: Path
    language: str
    entry: str
    digest: str

    @property
    def name(self) -> str:
        return self.spec.name


def check_spec(spec: BotSpec) -> None:
    """Cheap checks for the command line: the path exists and has a known kind."""
    if spec.is_builtin:
        if not spec.builtin_name:
            raise BotPackageError("builtin: needs a player name, e.g. builtin:random")
        return
    path = Path(spec.source)
    if not path.exists():
        raise BotPackageError(f"bot {spec.source!r}: no such file or folder")
    if path.is_file() and not zipfile.is_zipfile(path) and path.suffix not in SOURCE_SUFFIXES:
        raise BotPackageError(
            f"bot {spec.source!r}: not a zip and not a source file "
            f"({', '.join(sorted(SOURCE_SUFFIXES))})")


def unpack(spec: BotSpec, dest: Path) -> BotPackage:
    """Copy or extract the bot into ``dest`` (created), check it, and describe it."""
    check_spec(spec)
    if spec.is_builtin:
        raise BotPackageError("built-in players are not unpacked")
    src = Path(spec.source)
    if src.is_dir():
        dest.mkdir(parents=True, exist_ok=False)
        _copy_folder(src, dest, spec.name)
        entry = only_entry([name for name in ENTRY_POINTS if (dest / name).is_file()],
                           spec.name)
        make_readable(dest)
    else:
        data = src.read_bytes()
        if not zipfile.is_zipfile(src):
            data = wrap_source(SOURCE_SUFFIXES[src.suffix], data)
        entry = PurePosixPath(extract(data, dest, spec.name).entry).name
    return BotPackage(spec=spec, root=dest, language=ENTRY_POINTS[entry], entry=entry,
                      digest=tree_digest(dest))


def readable_by_anyone(root: Path) -> bool:
    """Whether a bot's unprivileged uid can reach ``root``: every folder above it crossable
    by others (a root-owned 0700 folder on the way, such as ``/root``, would stop bubblewrap
    from mounting it)."""
    try:
        path = root.resolve()
        return all(p.stat().st_mode & 0o001 for p in (path, *path.parents))
    except OSError:
        return False


def tree_digest(root: Path) -> str:
    """SHA-256 over every file's relative path and bytes, in a stable order."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()):
        rel = path.relative_to(root).as_posix().encode()
        h.update(len(rel).to_bytes(4, "big") + rel)
        data = path.read_bytes()
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def _copy_folder(src: Path, dest: Path, what: str) -> None:
    total = 0
    count = 0
    for path in src.rglob("*"):
        if SKIPPED_NAMES.intersection(path.relative_to(src).parts):
            continue
        count += 1
        if count > LOCAL_LIMITS.max_entries:
            raise BotPackageError(f"bot {what!r}: more than {LOCAL_LIMITS.max_entries} files")
        if path.is_file():
            total += path.stat().st_size
            if total > LOCAL_LIMITS.max_unpacked:
                raise BotPackageError(
                    f"bot {what!r}: more than {LOCAL_LIMITS.max_unpacked >> 20} MiB")
    shutil.copytree(src, dest, dirs_exist_ok=True, symlinks=True,
                    ignore=shutil.ignore_patterns(*SKIPPED_NAMES))
