"""Bot archives: the one rule set every zip passes, and the one unpacker that writes exactly
what the rules accepted.

The league checks an upload with ``package_upload`` before it stores a byte; workers and the
local runner unpack with ``extract``, which checks again and then writes the checked members
and nothing else, so the unpacker can never disagree with the check: each member is written
under the name that was checked, with ``O_EXCL`` (a second member of the same name cannot
overwrite the first) and ``O_NOFOLLOW``. A single source file is turned into a one-entry zip
here, so whatever the league stores and a worker unpacks is always a zip.

Names are refused when a listing of the zip could show something other than the file that is
written: NUL bytes (``zipfile`` cuts the name there), control and invisible characters, a
Unicode-path extra field (``unzip`` shows that name, Python writes the other), non-canonical
paths (``a//b``, ``./a``), duplicates after Unicode normalisation and case folding, a file and
a folder of one name, and names or paths over the length limits.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import struct
import unicodedata
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from sandbox.errors import BotPackageError

MIB = 1024 * 1024
ENTRY_POINTS = {"main.py": "python", "main.js": "node", "main.cpp": "cpp"}
SOURCE_SUFFIXES = {".py": "main.py", ".js": "main.js", ".cpp": "main.cpp", ".cc": "main.cpp"}
SKIPPED_NAMES = frozenset({".git", "__pycache__", "__MACOSX", ".DS_Store"})
"""Tool droppings that are never part of a bot: a zip's members under one of these names are
not unpacked, and a folder is copied or zipped without them."""
UTF8_FLAG = 0x800
ENCRYPTED_FLAG = 0x1
UNICODE_PATH_EXTRA = 0x7075
# A fixed timestamp, so the same source always makes the same archive (and sha256).
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
# Errors writing a member that come from the member's name, not from the machine: the bot's
# fault (rejected), where a full disk or a read-only folder is the infrastructure's (retried).
_NAME_ERRNOS = {errno.ENAMETOOLONG, errno.EEXIST, errno.ENOTDIR, errno.EISDIR, errno.EILSEQ,
                errno.EINVAL, errno.ELOOP}
_INVISIBLE = {"Cc", "Cf", "Cs", "Zl", "Zp"}


@dataclass(frozen=True)
class PackageLimits:
    max_archive: int = 64 * MIB
    """Bytes of the archive (or single file) as uploaded."""
    max_entries: int = 2000
    max_unpacked: int = 64 * MIB
    max_ratio: int = 200
    """Unpacked-to-compressed ratio of one entry beyond which the zip is taken for a bomb."""
    max_name: int = 128
    """UTF-8 bytes of one file or folder name."""
    max_path: int = 512
    """UTF-8 bytes of a member's whole path inside the archive."""


LOCAL_LIMITS = PackageLimits()
"""The local runner's limits."""
UPLOAD_LIMITS = PackageLimits(max_archive=10 * MIB, max_entries=1000, max_unpacked=50 * MIB,
                              max_ratio=100, max_name=128, max_path=512)
"""A league's uploads: stricter. The league enforces them (``league/bots/uploads.py``) and
``botleague submit`` (``client/submit.py``) checks the size before it sends a byte."""


@dataclass(frozen=True)
class Member:
    path: str
    """Where the member is written, relative to the package's root (its top folder dropped)."""
    info: zipfile.ZipInfo


@dataclass(frozen=True)
class ArchiveInfo:
    """A checked archive: its entry point, language, size, and the members to write."""

    language: str
    entry: str
    """Path of the entry point inside the archive (``main.py`` or ``mybot/main.py``)."""
    files: int
    unpacked: int
    root: str = ""
    """The single top folder the package sits in (``mybot/``), or "" when it is at the top."""
    members: tuple[Member, ...] = ()
    folders: tuple[str, ...] = ()
    """Empty folders the zip lists, relative to the root; written too."""


def _refuse(what: str, problem: str) -> BotPackageError:
    return BotPackageError(f"bot {what!r}: {problem}")


def _decoded_name(info: zipfile.ZipInfo, what: str) -> str:
    """The member's name as written, refusing one that is not plain UTF-8 text.

    Without the UTF-8 flag ``zipfile`` decodes names as cp437; the original bytes are taken
    when they are valid UTF-8 (many tools write UTF-8 without setting the flag).
    """
    if "\x00" in info.orig_filename:
        raise _refuse(what, f"a name in the zip holds a NUL byte ({info.filename!r}…); "
                            "rename the file")
    name = info.filename
    if not (info.flag_bits & UTF8_FLAG or name.isascii()):
        try:
            name = name.encode("cp437").decode("utf-8")
        except UnicodeError:
            raise _refuse(what, f"the name {name!r} is not UTF-8; rename it or zip with a "
                                "tool that writes UTF-8 names") from None
    for char in name:
        if unicodedata.category(char) in _INVISIBLE:
            raise _refuse(what, f"the name {name!r} holds a control or invisible character "
                                f"(U+{ord(char):04X}); rename the file")
    if _has_unicode_path_field(info.extra):
        raise _refuse(what, f"{name!r} carries a second, Unicode name (an extra field that "
                            "some tools list instead); zip it again with a current tool")
    return name


def _has_unicode_path_field(extra: bytes) -> bool:
    while len(extra) >= 4:
        kind, size = struct.unpack("<HH", extra[:4])
        if kind == UNICODE_PATH_EXTRA:
            return True
        extra = extra[4 + size:]
    return False


def _checked_path(name: str, is_dir: bool, what: str, limits: PackageLimits) -> tuple[str, ...]:
    """The member's path parts, refusing anything unsafe or not written as it is listed."""
    bare = name[:-1] if is_dir else name
    parts = tuple(bare.split("/"))
    if "\\" in name or name.startswith("/") or any(p in {"", ".", ".."} for p in parts):
        raise _refuse(what, f"unsafe path {name!r} in the zip (absolute, '..', a "
                            "backslash, or an empty or '.' part)")
    if len(bare.encode()) > limits.max_path:
        raise _refuse(what, f"the path {name[:60]!r}… is longer than {limits.max_path} bytes")
    for part in parts:
        if len(part.encode()) > limits.max_name:
            raise _refuse(what, f"the name {part[:60]!r}… is longer than {limits.max_name} "
                                "bytes")
    return parts


def _check_kind(info: zipfile.ZipInfo, name: str, what: str, limits: PackageLimits) -> None:
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise _refuse(what, f"symbolic link {name!r} in the zip")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        raise _refuse(what, f"{name!r} is a device or special file")
    if info.flag_bits & ENCRYPTED_FLAG:
        raise _refuse(what, "encrypted entries are not supported")
    if info.is_dir() and info.file_size:
        raise _refuse(what, f"{name!r} is a folder entry holding data")
    if info.file_size and info.file_size / max(info.compress_size, 1) > limits.max_ratio:
        raise _refuse(what, f"{name!r} looks like a zip bomb (compressed over "
                            f"{limits.max_ratio}:1)")


def _key(parts: Iterable[str]) -> str:
    """Two names that are one file on some disk or to some reader: normalised, case-folded."""
    return unicodedata.normalize("NFC", "/".join(parts)).casefold()


def check_zip(data: bytes, what: str, limits: PackageLimits) -> ArchiveInfo:
    """Check a zip held in memory, reading every member once (CRCs included)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            if len(infos) > limits.max_entries:
                raise _refuse(what, f"{len(infos)} entries in the zip, more than "
                                    f"{limits.max_entries}")
            files: list[tuple[tuple[str, ...], zipfile.ZipInfo]] = []
            folders: list[tuple[str, ...]] = []
            seen: dict[str, str] = {}
            total = 0
            for info in infos:
                name = _decoded_name(info, what)
                _check_kind(info, name, what, limits)
                parts = _checked_path(name, info.is_dir(), what, limits)
                key = _key(parts)
                if key in seen:
                    raise _refuse(what, f"{seen[key]!r} and {name!r} are the same name in the "
                                        "zip; keep one")
                seen[key] = name
                if any(p in SKIPPED_NAMES for p in parts):
                    continue
                total += info.file_size
                (folders.append(parts) if info.is_dir() else files.append((parts, info)))
            if total > limits.max_unpacked:
                raise _refuse(what, f"unpacks to {total / MIB:.1f} MiB, more than "
                                    f"{limits.max_unpacked // MIB} MiB")
            _check_collisions([p for p, _ in files], what)
            for _, info in files:  # a corrupt member is found now, not in the first match
                with archive.open(info) as member:
                    while member.read(1 << 20):
                        pass
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error,
            NotImplementedError, ValueError) as error:
        if isinstance(error, BotPackageError):
            raise
        raise _refuse(what, f"cannot read the zip ({error})") from None
    if not files:
        raise _refuse(what, "the zip holds no files")
    return _rooted(files, folders, total, what)


def _check_collisions(files: list[tuple[str, ...]], what: str) -> None:
    """A file whose name is also a folder of another member (``a`` and ``a/b``)."""
    folders = {_key(parts[:i]): "/".join(parts[:i])
               for parts in files for i in range(1, len(parts))}
    for parts in files:
        if _key(parts) in folders:
            raise _refuse(what, f"{'/'.join(parts)!r} is both a file and a folder in the zip")


def _rooted(files: list[tuple[tuple[str, ...], zipfile.ZipInfo]],
            folders: list[tuple[str, ...]], total: int, what: str) -> ArchiveInfo:
    """Find the entry point: at the top, or inside a single top folder with nothing beside it."""
    top = {parts[0] for parts, _ in files} | {parts[0] for parts in folders}
    at_top = [e for e in ENTRY_POINTS if (e,) in {parts for parts, _ in files}]
    root: tuple[str, ...] = ()
    if not at_top:
        inner = {parts[0] for parts, _ in files if len(parts) == 2 and parts[1] in ENTRY_POINTS}
        if len(inner) == 1:
            (folder,) = inner
            stray = sorted(top - {folder})
            if stray:
                raise _refuse(what, f"the entry point is in {folder + '/'!r}, but "
                                    f"{', '.join(map(repr, stray))} sits beside that folder; "
                                    "put everything inside it")
            root = (folder,)
    depth = len(root)
    members = tuple(Member("/".join(parts[depth:]), info) for parts, info in files)
    names = {m.path for m in members}
    entry = only_entry([e for e in ENTRY_POINTS if e in names], what)
    prefix = "/".join(root) + "/" if root else ""
    return ArchiveInfo(language=ENTRY_POINTS[entry], entry=prefix + entry, files=len(members),
                       unpacked=total, root=prefix,
                       members=members,
                       folders=tuple("/".join(p[depth:]) for p in folders if len(p) > depth))


def extract(data: bytes, dest: Path, what: str, limits: PackageLimits = LOCAL_LIMITS
            ) -> ArchiveInfo:
    """Check the zip and write its members (its top folder dropped) into ``dest``, which must
    not exist. A name the disk refuses is the bot's fault (``BotPackageError``); a full or
    read-only disk is the machine's (``OSError``)."""
    info = check_zip(data, what, limits)
    dest.mkdir(parents=True)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for folder in info.folders:
                (dest / folder).mkdir(parents=True, exist_ok=True)
            for member in info.members:
                _write(archive, member, dest)
    except OSError as error:
        if error.errno not in _NAME_ERRNOS:
            raise
        reason = os.strerror(error.errno or 0).lower()
        raise _refuse(what, f"cannot unpack a member ({reason})") from None
    make_readable(dest)
    return info


def _write(archive: zipfile.ZipFile, member: Member, dest: Path) -> None:
    target = dest.joinpath(*member.path.split("/"))
    target.parent.mkdir(parents=True, exist_ok=True)
    # O_EXCL: no member is ever written over another; O_NOFOLLOW: never through a link
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as out, archive.open(member.info) as source:
        while chunk := source.read(1 << 20):
            out.write(chunk)


def make_readable(root: Path) -> None:
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


def is_zip(filename: str, data: bytes) -> bool:
    return data[:4] in (b"PK\x03\x04", b"PK\x05\x06") or filename.lower().endswith(".zip")


def package_upload(filename: str, data: bytes,
                   limits: PackageLimits = LOCAL_LIMITS) -> tuple[bytes, ArchiveInfo]:
    """A checked zip for an upload: the zip itself, or a single source file wrapped in one.

    Raises ``BotPackageError`` with the reason for anything that could not be played.
    """
    what = PurePosixPath(filename).name or "upload"
    if not data:
        raise _refuse(what, "the file is empty")
    if len(data) > limits.max_archive:
        raise _refuse(what, too_large(len(data), limits))
    if is_zip(filename, data):
        return data, check_zip(data, what, limits)
    suffix = PurePosixPath(filename).suffix.lower()
    if suffix not in SOURCE_SUFFIXES:
        raise _refuse(what, f"not a zip and not a source file "
                            f"({', '.join(sorted(SOURCE_SUFFIXES))}); upload main.py, main.js, "
                            "main.cpp or a zip holding one of them")
    archive = wrap_source(SOURCE_SUFFIXES[suffix], data)
    return archive, check_zip(archive, what, limits)


def too_large(size: int | None, limits: PackageLimits) -> str:
    """The one message for an archive over the cap."""
    got = f"{size / MIB:.1f} MiB, " if size is not None else ""
    return (f"{got}more than the {limits.max_archive / MIB:g} MiB a bot may be "
            "(zip it without build outputs, data or .git)")


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
        raise _refuse(what, f"no entry point; put one of {', '.join(ENTRY_POINTS)} at the top "
                            "of the package (or inside its single top folder)")
    if len(found) > 1:
        raise _refuse(what, f"{' and '.join(found)} are both entry points; keep exactly one")
    return found[0]
