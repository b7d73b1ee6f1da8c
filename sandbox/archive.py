"""The rules every bot archive passes, checked in memory before anything is written.

The local runner applies them while unpacking a zip (``packages.unpack``); the league applies
them to an upload, with its own stricter ``PackageLimits``, before it stores a single byte.
A single source file is turned into a one-entry zip here, so whatever the league stores and
the runner unpacks is always a zip.
"""

from __future__ import annotations

import io
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from sandbox.errors import BotPackageError

MIB = 1024 * 1024
ENTRY_POINTS = {"main.py": "python", "main.js": "node", "main.cpp": "cpp"}
SOURCE_SUFFIXES = {".py": "main.py", ".js": "main.js", ".cpp": "main.cpp", ".cc": "main.cpp"}
IGNORED_TOP = {"__MACOSX", ".DS_Store"}
UTF8_FLAG = 0x800
ENCRYPTED_FLAG = 0x1
# A fixed timestamp, so the same source always makes the same archive (and sha256).
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class PackageLimits:
    max_archive: int = 64 * MIB
    """Bytes of the archive (or single file) as uploaded."""
    max_entries: int = 2000
    max_unpacked: int = 64 * MIB
    max_ratio: int = 200
    """Unpacked-to-compressed ratio of one entry beyond which the zip is taken for a bomb."""


@dataclass(frozen=True)
class ArchiveInfo:
    """What a checked archive holds: its entry point, language and size."""

    language: str
    entry: str
    """Path of the entry point inside the archive (``main.py`` or ``mybot/main.py``)."""
    files: int
    unpacked: int


def entry_name(info: zipfile.ZipInfo, what: str) -> str:
    """The entry's name, refusing one that is not UTF-8.

    Without the UTF-8 flag, ``zipfile`` decodes names as cp437; the original bytes are
    accepted when they are valid UTF-8 (many tools write UTF-8 without setting the flag).
    """
    name = info.filename
    if info.flag_bits & UTF8_FLAG or name.isascii():
        return name
    try:
        return name.encode("cp437").decode("utf-8")
    except UnicodeError:
        raise BotPackageError(
            f"bot {what!r}: entry name {name!r} is not UTF-8; rename it or zip with a tool "
            "that writes UTF-8 names") from None


def check_entries(infos: list[zipfile.ZipInfo], what: str, limits: PackageLimits) -> int:
    """Refuse unsafe or oversized entries; returns the total unpacked size."""
    if len(infos) > limits.max_entries:
        raise BotPackageError(
            f"bot {what!r}: {len(infos)} entries in the zip, more than {limits.max_entries}")
    total = 0
    for info in infos:
        name = entry_name(info, what)
        path = PurePosixPath(name)
        if path.is_absolute() or ".." in path.parts or "\\" in name:
            raise BotPackageError(f"bot {what!r}: unsafe path {name!r} in the zip")
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise BotPackageError(f"bot {what!r}: symbolic link {name!r} in the zip")
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or \
                stat.S_ISSOCK(mode):
            raise BotPackageError(f"bot {what!r}: {name!r} is a device or special file")
        if info.flag_bits & ENCRYPTED_FLAG:
            raise BotPackageError(f"bot {what!r}: encrypted entries are not supported")
        total += info.file_size
        if info.file_size and info.file_size / max(info.compress_size, 1) > limits.max_ratio:
            raise BotPackageError(f"bot {what!r}: {name!r} looks like a zip bomb "
                                  f"(compressed over {limits.max_ratio}:1)")
    if total > limits.max_unpacked:
        raise BotPackageError(
            f"bot {what!r}: unpacks to {total / MIB:.1f} MiB, more than "
            f"{limits.max_unpacked // MIB} MiB")
    return total


def find_entry_in(names: list[str], what: str) -> tuple[str, str]:
    """The entry point among archive names: at the top, or inside a single top folder."""
    top = {PurePosixPath(n).parts[0] for n in names if PurePosixPath(n).parts}
    top -= IGNORED_TOP
    prefix = ""
    if len(top) == 1 and not any(t in ENTRY_POINTS for t in top):
        (folder,) = top
        if any(PurePosixPath(n).parts[0] == folder and len(PurePosixPath(n).parts) > 1
               for n in names):
            prefix = folder + "/"
    files = set(names)
    entry = only_entry([e for e in ENTRY_POINTS if prefix + e in files], what)
    return prefix + entry, ENTRY_POINTS[entry]


def inspect_zip(data: bytes, what: str, limits: PackageLimits) -> ArchiveInfo:
    """Check a zip held in memory, reading every entry once (CRCs included)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            unpacked = check_entries(infos, what, limits)
            files = [info for info in infos if not info.is_dir()]
            if not files:
                raise BotPackageError(f"bot {what!r}: the zip holds no files")
            for info in files:  # a corrupt member is found now, not in the first match
                with archive.open(info) as member:
                    while member.read(1 << 20):
                        pass
            names = [entry_name(i, what) for i in files]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error,
            NotImplementedError, ValueError) as error:
        raise BotPackageError(f"bot {what!r}: cannot read the zip ({error})") from None
    entry, language = find_entry_in(names, what)
    return ArchiveInfo(language=language, entry=entry, files=len(files), unpacked=unpacked)


def package_upload(filename: str, data: bytes,
                   limits: PackageLimits | None = None) -> tuple[bytes, ArchiveInfo]:
    """A checked zip for an upload: the zip itself, or a single source file wrapped in one.

    Raises ``BotPackageError`` with the reason for anything that could not be played.
    """
    limits = limits or PackageLimits()
    what = filename or "upload"
    if not data:
        raise BotPackageError(f"bot {what!r}: the file is empty")
    if len(data) > limits.max_archive:
        raise BotPackageError(
            f"bot {what!r}: {len(data) / MIB:.1f} MiB, more than the "
            f"{limits.max_archive // MIB} MiB an upload may be")
    if data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06" or \
            filename.lower().endswith(".zip"):
        return data, inspect_zip(data, what, limits)
    suffix = PurePosixPath(filename).suffix.lower()
    if suffix not in SOURCE_SUFFIXES:
        raise BotPackageError(
            f"bot {what!r}: not a zip and not a source file "
            f"({', '.join(sorted(SOURCE_SUFFIXES))}); upload main.py, main.js, main.cpp or a "
            "zip holding one of them")
    return wrap_source(SOURCE_SUFFIXES[suffix], data), ArchiveInfo(
        language=ENTRY_POINTS[SOURCE_SUFFIXES[suffix]], entry=SOURCE_SUFFIXES[suffix],
        files=1, unpacked=len(data))


def wrap_source(entry: str, data: bytes) -> bytes:
    """One source file as a deterministic one-entry zip named after its entry point."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo(entry, date_time=ZIP_EPOCH)
        info.external_attr = (stat.S_IFREG | 0o644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, data)
    return buffer.getvalue()


def only_entry(found: list[str], what: str) -> str:
    """The one entry point among ``found`` (names from ``ENTRY_POINTS``), or a clear error."""
    if not found:
        raise BotPackageError(
            f"bot {what!r}: no entry point; put one of {', '.join(ENTRY_POINTS)} at the top "
            "of the package")
    if len(found) > 1:
        raise BotPackageError(
            f"bot {what!r}: {' and '.join(found)} are both entry points; keep exactly one")
    return found[0]
