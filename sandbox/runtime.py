"""What every bot sees besides its own files: the interpreter and a read-only library folder.

The library folder holds a copy of the engine package ``games`` and the helper ``botlib``,
byte-compiled once, under a cache directory named by their content hash. A copy (rather than
the repository itself) because the bot's unprivileged uid must be able to read it wherever
the repository lives, and because the compiled files make every Python bot start faster.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import games

BOTLIB_DIR = Path(__file__).resolve().parent / "botlib"
GAMES_DIR = Path(games.__file__).resolve().parent

SANDBOX_BOT = "/bot"
SANDBOX_LIB = "/opt/botleague/lib"
SANDBOX_BUILD = "/opt/botleague/build"


def cache_root() -> Path:
    """``/var/cache/botleague`` for root (workers, CI), the user's cache folder otherwise."""
    override = os.environ.get("BOTLEAGUE_CACHE")
    if override:
        root = Path(override)
    elif os.geteuid() == 0:
        root = Path("/var/cache/botleague")
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "botleague"
    root.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        os.chmod(root, 0o755)
    return root


@functools.cache
def python_interpreter() -> str:
    """The real system interpreter for bots (a pyenv shim costs ~100 ms per start).

    ``/usr/bin/python3`` is what the sandbox (and the runner image) provide; it must be 3.11+
    because bots import the engine.
    """
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if _version_ok(candidate):
            return os.path.realpath(candidate)
    return os.path.realpath(sys.executable)


def _version_ok(path: str) -> bool:
    if not os.access(path, os.X_OK):
        return False
    try:
        out = subprocess.run([path, "-I", "-c", "import sys; print(sys.version_info >= (3, 11))"],
                             capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.stdout.strip() == "True"


def _sources(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def _digest() -> str:
    h = hashlib.sha256(python_interpreter().encode())
    for base in (GAMES_DIR, BOTLIB_DIR):
        for path in _sources(base):
            h.update(path.relative_to(base.parent).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


@functools.cache
def library_dir() -> Path:
    """The read-only library folder for bots (``games/`` and ``botlib/``), built once."""
    target = cache_root() / "lib" / _digest()
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".lib-", dir=target.parent))
    for base in (GAMES_DIR, BOTLIB_DIR):
        for path in _sources(base):
            dest = staging / path.relative_to(base.parent)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    subprocess.run([python_interpreter(), "-I", "-m", "compileall", "-q", "-s", str(staging),
                    "-p", SANDBOX_LIB, str(staging)], check=False, capture_output=True)
    for dirpath, _dirnames, filenames in os.walk(staging):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)
    try:
        staging.rename(target)
    except OSError:  # another worker built the same folder first
        shutil.rmtree(staging, ignore_errors=True)
    return target
