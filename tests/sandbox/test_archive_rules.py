"""The archive rules, as a table: a refused zip is refused by the check and by the unpacker,
which writes nothing; an accepted one unpacks to exactly the names the check accepted, each
with the bytes the zip holds for it."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

from sandbox import BotPackageError
from sandbox.archive import LOCAL_LIMITS, check_zip, extract
from tests.sandbox.archive_cases import CASES, Case


def files_under(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_unpacker_writes_exactly_what_the_check_accepted(case: Case, tmp_path: Path
                                                             ) -> None:
    dest = tmp_path / "bot"
    if case.refused:
        with pytest.raises(BotPackageError, match=re.escape(case.refused)):
            check_zip(case.data, "bot.zip", LOCAL_LIMITS)
        with pytest.raises(BotPackageError):
            extract(case.data, dest, "bot.zip")
        assert not dest.exists() or not any(dest.iterdir()), "a refused zip wrote files"
        return
    info = check_zip(case.data, "bot.zip", LOCAL_LIMITS)
    assert sorted(m.path for m in info.members) == sorted(case.written)
    extract(case.data, dest, "bot.zip")
    written = files_under(dest)
    assert sorted(written) == sorted(case.written)
    with zipfile.ZipFile(io.BytesIO(case.data)) as archive:
        for member in info.members:
            assert written[member.path] == archive.read(info.root + member.path)


def test_a_name_the_disk_refuses_is_the_bots_fault_and_leaves_nothing(tmp_path: Path) -> None:
    # Over 255 bytes in one name: refused by the rules already; with the rules' length limit
    # lifted, the disk's ENAMETOOLONG must still be a BotPackageError, not an OSError.
    from dataclasses import replace

    from tests.sandbox.archive_cases import BOT, zip_of

    data = zip_of(("main.py", BOT), ("n" * 300 + ".py", b"1"))
    lifted = replace(LOCAL_LIMITS, max_name=4096)
    with pytest.raises(BotPackageError, match="cannot unpack a member"):
        extract(data, tmp_path / "bot", "bot.zip", lifted)
