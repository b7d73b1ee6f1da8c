"""Zips that test the archive rules: each built byte by byte where ``zipfile`` would not write
it, with what the rules must say. Shared by the sandbox's table test and the league's upload
test, so both layers are held to one table."""

from __future__ import annotations

import io
import struct
import unicodedata
import zipfile
from dataclasses import dataclass

BOT = b"from botlib import run\nrun(lambda turn: turn.legal_moves[0])\n"


@dataclass(frozen=True)
class Case:
    id: str
    data: bytes
    refused: str = ""
    """A part of the refusal's message; "" when the zip is accepted."""
    written: tuple[str, ...] = ()
    """For an accepted zip: the files unpacked, relative to the package's root."""


def zip_of(*members: tuple[str, bytes] | str, extra: bytes = b"") -> bytes:
    """Members as (name, data), or a name ending in "/" for a folder entry."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in members:
            if isinstance(member, str):
                archive.writestr(zipfile.ZipInfo(member), b"")
                continue
            name, data = member
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.extra = extra
            archive.writestr(info, data)
    return buffer.getvalue()


def renamed(data: bytes, old: bytes, new: bytes) -> bytes:
    """The zip with a name's bytes replaced in the local header and the central directory
    (same length, so every offset holds): how a name ``zipfile`` would never write is made."""
    assert len(old) == len(new) and data.count(old) == 2
    return data.replace(old, new)


def with_duplicate(name: str) -> bytes:
    """Two members of one name (``zipfile`` warns but writes them)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", BOT)
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            archive.writestr(name, b"import os\nos.system('echo the second one runs')\n")
    return buffer.getvalue()


def unicode_path_extra(name: str) -> bytes:
    encoded = name.encode()
    body = b"\x01" + struct.pack("<I", 0) + encoded
    return struct.pack("<HH", 0x7075, len(body)) + body


NFC = unicodedata.normalize("NFC", "café.py")
NFD = unicodedata.normalize("NFD", "café.py")

CASES = [
    # accepted, and exactly these files are written
    Case("top-level", zip_of(("main.py", BOT), ("lib/util.py", b"X = 1\n")),
         written=("main.py", "lib/util.py")),
    Case("single-folder", zip_of(("mybot/main.py", BOT), ("mybot/lib/util.py", b"X = 1\n")),
         written=("main.py", "lib/util.py")),
    Case("junk-left-out", zip_of(("mybot/main.py", BOT), ("__MACOSX/mybot/._main.py", b"x"),
                                 ("mybot/.DS_Store", b"x"), ("mybot/__pycache__/a.pyc", b"x")),
         written=("main.py",)),
    Case("empty-folder", zip_of(("main.py", BOT), "data/"), written=("main.py",)),
    Case("nfd-name", zip_of(("main.py", BOT), (NFD, b"X = 1\n")), written=("main.py", NFD)),
    # refused: what a listing shows is not what would run
    Case("duplicate", with_duplicate("main.py"), refused="are the same name"),
    Case("duplicate-case", zip_of(("main.py", BOT), ("Main.py", BOT)),
         refused="are the same name"),
    Case("duplicate-normalised", zip_of(("main.py", BOT), (NFC, b"1"), (NFD, b"2")),
         refused="are the same name"),
    Case("nul-byte", renamed(zip_of(("main.py", BOT), ("evilXmain.py", b"2")), b"evilX",
                             b"evil\x00"), refused="NUL byte"),
    Case("control-char", zip_of(("main.py", BOT), ("ma\x07in2.py", b"1")),
         refused="control or invisible character"),
    Case("bidi-override", zip_of(("main.py", BOT), ("gnp.\u202eexe.py", b"1")),
         refused="control or invisible character (U+202E)"),
    Case("unicode-path-field", zip_of(("main.py", BOT), extra=unicode_path_extra("other.py")),
         refused="second, Unicode name"),
    Case("long-name", zip_of(("main.py", BOT), ("x" * 200 + ".py", b"1")),
         refused="longer than 128 bytes"),
    Case("long-path", zip_of(("main.py", BOT), ("/".join(["d" * 100] * 6) + "/f.py", b"1")),
         refused="longer than 512 bytes"),
    Case("file-and-folder", zip_of(("main.py", BOT), ("lib", b"1"), ("lib/util.py", b"2")),
         refused="both a file and a folder"),
    Case("folder-entry-and-file", zip_of(("main.py", BOT), "lib/", ("lib", b"1")),
         refused="are the same name"),
    Case("stray-folder", zip_of(("mybot/main.py", BOT), ("other/notes.txt", b"1")),
         refused="sits beside that folder"),
    Case("stray-folder-entry", zip_of(("mybot/main.py", BOT), "empty/"),
         refused="sits beside that folder"),
    Case("stray-file", zip_of(("mybot/main.py", BOT), ("README", b"1")),
         refused="sits beside that folder"),
    Case("double-slash", zip_of(("main.py", BOT), ("lib//util.py", b"1")),
         refused="unsafe path"),
    Case("dot-part", zip_of(("./main.py", BOT)), refused="unsafe path"),
    Case("parent", zip_of(("main.py", BOT), ("../main.py", b"1")), refused="unsafe path"),
    Case("backslash", zip_of(("main.py", BOT), ("lib\\util.py", b"1")), refused="unsafe path"),
]
