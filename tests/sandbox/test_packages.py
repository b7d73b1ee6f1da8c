"""Bot packages: a file, a folder or a zip; a clear error for anything else, before any move."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from sandbox import BotPackageError, run_match
from sandbox.packages import BotSpec, readable_by_anyone, tree_digest, unpack
from tests.sandbox.conftest import BOTS

BOT = (BOTS / "first.py").read_text()


def zip_of(path: Path, files: dict[str, str]) -> str:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in files.items():
            z.writestr(name, text)
    return str(path)


def test_a_single_source_file_becomes_the_entry_point(tmp_path: Path) -> None:
    src = tmp_path / "my_clever_bot.py"
    src.write_text(BOT)
    package = unpack(BotSpec(str(src)), tmp_path / "out")
    assert (package.entry, package.language) == ("main.py", "python")
    assert (package.root / "main.py").read_text() == BOT


def test_a_zip_of_a_folder_is_unwrapped(tmp_path: Path) -> None:
    archive = zip_of(tmp_path / "bot.zip", {"mybot/main.js": "1", "mybot/lib.js": "2"})
    package = unpack(BotSpec(archive), tmp_path / "out")
    assert package.language == "node"
    assert (package.root / "lib.js").read_text() == "2"


def test_the_digest_depends_on_content_only(tmp_path: Path) -> None:
    a = zip_of(tmp_path / "a.zip", {"main.py": BOT})
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "main.py").write_text(BOT)
    assert unpack(BotSpec(a), tmp_path / "x").digest == unpack(BotSpec(str(folder)),
                                                                 tmp_path / "y").digest
    (folder / "main.py").write_text(BOT + "\n")
    assert tree_digest(folder) != unpack(BotSpec(a), tmp_path / "z").digest


@pytest.mark.parametrize(("files", "message"), [
    ({"bot.py": "x"}, "no entry point"),
    ({"main.py": "x", "main.cpp": "y"}, "main.py and main.cpp are both entry points"),
    ({"../evil/main.py": "x"}, "unsafe path"),
    ({"/etc/main.py": "x"}, "unsafe path"),
])
def test_bad_zips_are_refused_with_the_reason(tmp_path: Path, files: dict[str, str],
                                              message: str) -> None:
    with pytest.raises(BotPackageError, match=message):
        unpack(BotSpec(zip_of(tmp_path / "bad.zip", files)), tmp_path / "out")


def test_a_zip_bomb_is_refused(tmp_path: Path) -> None:
    archive = zip_of(tmp_path / "bomb.zip", {"main.py": "#" * (70 << 20)})
    with pytest.raises(BotPackageError, match=r"zip bomb|MiB"):
        unpack(BotSpec(archive), tmp_path / "out")


def test_a_symlink_in_a_zip_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "link.zip"
    with zipfile.ZipFile(path, "w") as z:
        info = zipfile.ZipInfo("main.py")
        info.external_attr = (0o120777 << 16)
        z.writestr(info, "/etc/shadow")
    with pytest.raises(BotPackageError, match="symbolic link"):
        unpack(BotSpec(str(path)), tmp_path / "out")


def test_a_corrupt_zip_is_refused(tmp_path: Path) -> None:
    archive = Path(zip_of(tmp_path / "c.zip", {"main.py": BOT * 50}))
    data = bytearray(archive.read_bytes())
    data[40:80] = b"\0" * 40
    archive.write_bytes(bytes(data))
    with pytest.raises(BotPackageError, match=r"cannot read the zip|no entry point"):
        unpack(BotSpec(str(archive)), tmp_path / "out")


@pytest.mark.parametrize(("source", "message"), [
    ("/no/such/bot.py", "no such file"),
    ("builtin:", "needs a player name"),
])
def test_bad_paths_fail_before_the_match(source: str, message: str) -> None:
    with pytest.raises(BotPackageError, match=message):
        run_match("stones", [source, str(BOTS / "first.py")], backend="process")


def test_an_unknown_file_kind_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "bot.rb"
    src.write_text("puts 1")
    with pytest.raises(BotPackageError, match="not a zip and not a source file"):
        run_match("stones", [str(src), str(BOTS / "first.py")], backend="process")


def test_an_unknown_builtin_names_the_known_ones() -> None:
    with pytest.raises(BotPackageError, match="known: random"):
        run_match("stones", ["builtin:nosuch", str(BOTS / "first.py")], backend="process")


@pytest.mark.parametrize("private", [False, True], ids=["open", "behind-a-private-folder"])
def test_an_unpacked_package_is_played_where_it_is_or_copied_where_a_bot_can_read_it(
        tmp_path: Path, private: bool) -> None:
    """A worker hands the referee its cached, unpacked version; behind a folder a bot's uid
    cannot cross (root's 0700 ``/root``, say) it is copied into the match folder instead."""
    import shutil
    import tempfile

    from sandbox.archive import extract
    from sandbox.packages import BotPackage

    # not under tmp_path: pytest keeps its own folder private (0700)
    base = Path(tempfile.mkdtemp(prefix="botleague-test-cache-"))
    base.chmod(0o700 if private else 0o755)
    root = base / "v1"
    extract(zip_bytes({"main.py": BOT}), root, "v1")
    package = BotPackage(spec=BotSpec(str(root), label="v1"), root=root, language="python",
                         entry="main.py", digest="v1")
    try:
        assert readable_by_anyone(root) is not private
        record = run_match("stones", [package, "builtin:random"], seed=3)
    finally:
        shutil.rmtree(base)
    assert record.players[0].moves > 0 and not record.result.forfeit, record.players[0].log


def zip_bytes(files: dict[str, str]) -> bytes:
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return buffer.getvalue()
