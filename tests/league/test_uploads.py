"""Uploads: a good one is stored as a new immutable version; every bad one is refused with a
reason a person can act on, and leaves nothing behind (no row, no file)."""

from __future__ import annotations

import hashlib
import io
import random
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from league.bots.models import Bot, BotVersion
from league.bots.services import UploadError
from league.ladders.models import Match, Participant
from league.ladders.services import version_upload
from tests.league import bots

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ladders_rolled_back")]

MIB = 1024 * 1024


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice")


def make_zip(entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED,
             tweak: Callable[[zipfile.ZipInfo], None] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = method
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            if tweak is not None:
                tweak(info)
            archive.writestr(info, data)
    return buffer.getvalue()


def low_entropy(size: int, seed: int) -> bytes:
    """Bytes that deflate about 20:1: big unpacked, small packed, under the bomb ratio."""
    table = bytes(ord("b") if i < 16 else ord("a") for i in range(256))
    return random.Random(seed).randbytes(size).translate(table)


def symlink(info: zipfile.ZipInfo) -> None:
    if info.filename == "link":
        info.external_attr = (stat.S_IFLNK | 0o777) << 16


def device(info: zipfile.ZipInfo) -> None:
    if info.filename == "tty":
        info.external_attr = (stat.S_IFCHR | 0o666) << 16


def not_utf8_zip() -> bytes:
    """A zip whose entry name is cp437 bytes that are not UTF-8, with no UTF-8 flag."""
    plain = make_zip({"main.py": MAIN, "XtX.txt": b"x"})
    return plain.replace(b"XtX.txt", b"\x82t\x82.txt")


MAIN = bots.RANDOM.encode()
BAD_UPLOADS: dict[str, tuple[Callable[[], tuple[str, bytes]], str]] = {
    "empty": (lambda: ("main.py", b""), "empty"),
    "over 10 MiB": (lambda: ("bot.zip", make_zip(
        {"main.py": MAIN, "blob": random.Random(1).randbytes(11 * MIB)},
        zipfile.ZIP_STORED)), "more than the 10 MiB"),
    "over 1,000 entries": (lambda: ("bot.zip", make_zip(
        {"main.py": MAIN, **{f"f{i}.txt": b"x" for i in range(1001)}})), "more than 1000"),
    "over 50 MiB unpacked": (lambda: ("bot.zip", make_zip(
        {"main.py": MAIN, **{f"data{i}.bin": low_entropy(13 * MIB, i) for i in range(4)}})),
        "more than 50 MiB"),
    "a zip bomb": (lambda: ("bot.zip", make_zip(
        {"main.py": MAIN, "zeros": bytes(20 * MIB)})), "zip bomb"),
    "an absolute path": (lambda: ("bot.zip", make_zip(
        {"main.py": MAIN, "/etc/cron.d/x": b"x"})), "unsafe path"),
    "a path with ..": (lambda: ("bot.zip", make_zip(
        {"main.py": MAIN, "../../escape.py": b"x"})), "unsafe path"),
    "a symbolic link": (lambda: ("bot.zip", make_zip(
        {"main.py": MAIN, "link": b"/etc/passwd"}, tweak=symlink)), "symbolic link"),
    "a device": (lambda: ("bot.zip", make_zip(
        {"main.py": MAIN, "tty": b""}, tweak=device)), "device"),
    "a name that is not UTF-8": (lambda: ("bot.zip", not_utf8_zip()), "not UTF-8"),
    "no entry point": (lambda: ("bot.zip", make_zip({"bot.py": MAIN})), "no entry point"),
    "two entry points": (lambda: ("bot.zip", make_zip(
        {"main.py": MAIN, "main.js": b"1"})), "both entry points"),
    "not a zip": (lambda: ("bot.zip", b"PK\x03\x04 this is no zip at all"),
                  "cannot read the zip"),
    "not a source file": (lambda: ("bot.exe", b"\x7fELF..."), "not a zip and not a source"),
    "a zip with no files": (lambda: ("bot.zip", make_zip({})), "holds no files"),
}


def data_files() -> set[Path]:
    return set(Path(settings.DATA_DIR).rglob("*"))


def assert_nothing_stored(files_before: set[Path]) -> None:
    assert Bot.objects.count() == 0
    assert BotVersion.objects.count() == 0
    assert Match.objects.count() == 0
    assert Participant.objects.count() == 0
    assert data_files() == files_before


@pytest.mark.parametrize("kind", BAD_UPLOADS)
def test_a_bad_upload_is_refused_with_its_reason_and_nothing_is_stored(
        alice: User, kind: str) -> None:
    make, message = BAD_UPLOADS[kind]
    filename, data = make()
    before = data_files()
    with pytest.raises(UploadError, match=message):
        version_upload(owner=alice, game="stones", name="mybot", filename=filename, data=data)
    assert_nothing_stored(before)


@pytest.mark.parametrize(("game", "name", "message"), [
    ("chess", "mybot", "unknown game 'chess'"),
    ("stones", "", "bot name"),
    ("stones", "../etc", "bot name"),
    ("stones", "x" * 41, "bot name"),
])
def test_a_bad_game_or_name_is_refused(alice: User, game: str, name: str, message: str) -> None:
    before = data_files()
    with pytest.raises(UploadError, match=message):
        version_upload(owner=alice, game=game, name=name, filename="main.py", data=MAIN)
    assert_nothing_stored(before)


def test_an_upload_is_a_new_immutable_version_with_its_validation_queued(alice: User) -> None:
    first = version_upload(owner=alice, game="stones", name="mybot", filename="main.py",
                           data=MAIN)
    second = version_upload(owner=alice, game="stones", name="mybot", filename="bot.zip",
                            data=make_zip({"mybot/main.js": b"// js\n"}))
    assert (first.number, second.number) == (1, 2)
    assert first.bot_id == second.bot_id
    assert first.language == "python" and second.language == "node"
    assert second.entry == "mybot/main.js"
    assert first.sha256 == hashlib.sha256(bytes(first.archive)).hexdigest()
    assert first.size == len(bytes(first.archive))
    assert {v.status for v in (first, second)} == {"validating"}
    validations = Match.objects.filter(kind="validation").order_by("pk")
    assert [m.participants.get(seat=0).version_id for m in validations] == [first.pk, second.pk]
    assert [m.participants.get(seat=1).builtin for m in validations] == ["random", "random"]


def test_the_same_source_gives_the_same_archive_and_sha256(alice: User) -> None:
    a = version_upload(owner=alice, game="stones", name="a", filename="main.py", data=MAIN)
    b = version_upload(owner=alice, game="stones", name="b", filename="main.py", data=MAIN)
    assert a.sha256 == b.sha256


def test_a_name_taken_by_someone_else_is_refused(alice: User) -> None:
    version_upload(owner=alice, game="stones", name="mybot", filename="main.py", data=MAIN)
    bob = User.objects.create_user("bob")
    with pytest.raises(UploadError, match="taken"):
        version_upload(owner=bob, game="stones", name="MyBot", filename="main.py", data=MAIN)
    assert BotVersion.objects.count() == 1
    # the same name on another game's ladder is another bot
    version_upload(owner=bob, game="blokus_duo", name="mybot", filename="main.py", data=MAIN)
