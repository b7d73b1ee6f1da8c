"""Compiling C++ bots: once per source, inside the sandbox, cached by content hash.

The compiler runs under the same backend (and uid, namespaces, limits) as the bot will,
since a hostile source can attack a compiler as well as a match (``#include "/etc/shadow"``).
The binary lands in ``<cache>/cpp/<hash>/bot``; a second match with the same source,
flags and backend starts at once.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

from sandbox.backends.base import Backend, LaunchSpec
from sandbox.channel import Channel
from sandbox.errors import BotPackageError
from sandbox.languages import CPP_FLAGS, compile_command
from sandbox.limits import MIB, Limits
from sandbox.packages import BotPackage
from sandbox.runtime import cache_root, library_dir


class BotBuildError(BotPackageError):
    """The bot's source does not compile. The message says only that (it is shown to anyone
    who reads the match); ``log`` holds the compiler's output, which quotes the source."""

    def __init__(self, message: str, log: str) -> None:
        super().__init__(message)
        self.log = log


def cpp_sources(package: BotPackage) -> list[str]:
    return sorted(p.relative_to(package.root).as_posix()
                  for p in package.root.rglob("*") if p.suffix in {".cpp", ".cc"}
                  and p.is_file())


def build_key(package: BotPackage, backend: Backend) -> str:
    h = hashlib.sha256()
    for part in (package.digest, backend.cache_key(), " ".join(CPP_FLAGS)):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:32]


def build_cpp(package: BotPackage, backend: Backend, limits: Limits) -> Path:
    """The folder holding the compiled ``bot`` (compiled now unless cached)."""
    folder = cache_root() / "cpp"
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)
    final = folder / build_key(package, backend)
    if (final / "bot").is_file():
        return final
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=folder))
    try:
        os.chmod(staging, 0o755)
        _compile(package, backend, limits, staging)
        _seal(staging)
        with contextlib.suppress(OSError):  # built concurrently by another worker: keep theirs
            staging.rename(final)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return final


def _compile(package: BotPackage, backend: Backend, limits: Limits, out: Path) -> None:
    compile_limits = limits.with_changes(memory=limits.compile_memory, pids=64,
                                         tmp_size=256 * MIB, log_bytes=64 * 1024)
    lib = library_dir()
    places = backend.places_for(lib, package.root, out)
    spec = LaunchSpec(command=compile_command(package.entry, cpp_sources(package), places),
                      limits=compile_limits, lib_dir=lib, package_dir=package.root,
                      build_dir=out, build_writable=True, label=f"compile {package.name}")
    bot = backend.launch(spec)
    try:
        channel = Channel(bot.transport, 1 << 20, 1 << 30, compile_limits.log_bytes)
        channel.close_input()
        deadline = time.monotonic() + limits.compile_time
        channel.drain(deadline)
        exit_info = bot.wait(max(0.0, deadline - time.monotonic()))
        log = channel.log.text()
    finally:
        bot.cleanup()
    if exit_info is None:
        raise BotBuildError(f"bot {package.name!r}: compiling took longer than "
                            f"{limits.compile_time:g} s", log)
    if exit_info.code != 0 or not (out / "bot").is_file():
        raise BotBuildError(f"bot {package.name!r}: C++ compilation failed (the compiler "
                            f"{exit_info.describe()}); its output is in the bot's log", log)


def _seal(folder: Path) -> None:
    """Hand the output back to the worker's uid and make it read-only for bots."""
    for path in [folder, *folder.rglob("*")]:
        if os.geteuid() == 0:
            os.lchown(path, 0, 0)
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() or path.name == "bot" else 0o644)


def log_tail(log: str, lines: int = 20) -> str:
    return "\n".join(log.strip().splitlines()[-lines:])
