"""Bot packages: a single source file, a folder or a zip, turned into a checked directory.

The entry point is chosen by file name (``main.py``, ``main.js``, ``main.cpp``); anything
ambiguous or unsafe is refused with a ``BotPackageError`` before a match starts. A package
is identified by the SHA-256 of its files so compiled code can be cached by content.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from sandbox.archive import (
    ENTRY_POINTS,
    SOURCE_SUFFIXES,
    PackageLimits,
    check_entries,
    entry_name,
    only_entry,
)
from sandbox.errors import BotPackageError

BUILTIN_PREFIX = "builtin:"
LIMITS = PackageLimits()
MAX_FILES = LIMITS.max_entries
MAX_UNPACKED = LIMITS.max_unpacked


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
    dest.mkdir(parents=True, exist_ok=False)
    if src.is_dir():
        _copy_folder(src, dest)
    elif zipfile.is_zipfile(src):
        _extract_zip(src, dest)
    else:
        shutil.copyfile(src, dest / SOURCE_SUFFIXES[src.suffix])
    root = _descend_single_folder(dest)
    entry, language = find_entry(root, spec.source)
    _make_readable(dest)
    return BotPackage(spec=spec, root=root, language=language, entry=entry,
                      digest=tree_digest(root))


def find_entry(root: Path, what: str) -> tuple[str, str]:
    entry = only_entry([name for name in ENTRY_POINTS if (root / name).is_file()], what)
    return entry, ENTRY_POINTS[entry]



def tree_digest(root: Path) -> str:
    """SHA-256 over every file's relative path and bytes, in a stable order."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()):
        rel = path.relative_to(root).as_posix().encode()
        h.update(len(rel).to_bytes(4, "big") + rel)
        data = path.read_bytes()
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def _copy_folder(src: Path, dest: Path) -> None:
    total = 0
    count = 0
    for path in src.rglob("*"):
        if any(part in {".git", "__pycache__", "node_modules"} for part in path.parts):
            continue
        count += 1
        if count > MAX_FILES:
            raise BotPackageError(f"bot {str(src)!r}: more than {MAX_FILES} files")
        if path.is_file():
            total += path.stat().st_size
            if total > MAX_UNPACKED:
                raise BotPackageError(f"bot {str(src)!r}: more than {MAX_UNPACKED >> 20} MiB")
    shutil.copytree(src, dest, dirs_exist_ok=True, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", "__pycache__", "node_modules"))


def _extract_zip(src: Path, dest: Path) -> None:
    try:
        with zipfile.ZipFile(src) as archive:
            infos = archive.infolist()
            check_entries(infos, str(src), LIMITS)
            for info in infos:
                target = dest / PurePosixPath(entry_name(info, str(src)))
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(info) as fin, open(target, "wb") as fout:
                    shutil.copyfileobj(fin, fout)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, zlib.error) as error:
        raise BotPackageError(f"bot {str(src)!r}: cannot read the zip ({error})") from None


def _descend_single_folder(root: Path) -> Path:
    """A zip of a folder holds one top-level folder; the package is inside it."""
    entries = [p for p in root.iterdir() if p.name not in {"__MACOSX", ".DS_Store"}]
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink() and not any(
            (root / name).is_file() for name in ENTRY_POINTS):
        return entries[0]
    return root


def _make_readable(root: Path) -> None:
    """Readable, not writable, by the bot's unprivileged uid (mounted read-only anyway)."""
    os.chmod(root, 0o755)
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            p = os.path.join(dirpath, d)
            if not os.path.islink(p):
                os.chmod(p, 0o755)
        for f in filenames:
            p = os.path.join(dirpath, f)
            if not os.path.islink(p):
                os.chmod(p, 0o644)
