"""Match folders: a referee's scratch space in /tmp, and the sweep of those a dead one left.

A match unpacks its bots into /tmp/botleague-match-<referee pid>-<run tag>-<random>-locked
and removes it at the end. A referee killed outright (SIGKILL, a dead worker) cannot, so
every match first sweeps the folders whose referee is gone. The pid in the name is for
people: inside a pid namespace (a container) it is not the host's, nor unique. What tells a
live match's folder from a stranded one is the ``flock`` its referee holds on it for the
whole match; the kernel drops it with its holder however that ends, in any namespace. The
run tag (``run_tag``) says
which run's referee made it: a run checking for its own leftovers on a shared machine counts
only its own.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sandbox.slots import this_run

MATCH_FOLDER_PREFIX = "botleague-match-"
# Ends the name of every locked folder. A folder without it was made by a referee from before
# the lock (an older version on the same machine, mid-upgrade): only its pid can be judged.
LOCKED_SUFFIX = "-locked"


@contextmanager
def match_folder() -> Iterator[Path]:
    """A new match folder, locked (``flock`` on the folder itself) while the block runs."""
    path, lock = _locked_folder()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        os.close(lock)


def _locked_folder() -> tuple[Path, int]:
    """Make a folder and lock it; made again if a sweep took it first (it was unlocked)."""
    while True:
        path = Path(tempfile.mkdtemp(prefix=f"{MATCH_FOLDER_PREFIX}{os.getpid()}-{run_tag()}-",
                                     suffix=LOCKED_SUFFIX))
        try:
            lock = _lock_folder(path)
        except FileNotFoundError:  # swept already
            continue
        except OSError:  # no flock on this file system: better loud than unsafe
            shutil.rmtree(path, ignore_errors=True)
            raise
        if lock is None:  # being swept
            continue
        # Locked, but it is ours only if a sweep did not remove it before we got the lock.
        try:
            if os.stat(path).st_ino == os.fstat(lock).st_ino:
                os.chmod(path, 0o755)
                return path, lock
        except FileNotFoundError:
            pass
        os.close(lock)


def _lock_folder(path: Path) -> int | None:
    """An open descriptor of ``path`` holding its exclusive lock; None if another holds it.

    Raises ``OSError`` when ``path`` is gone or no folder. Symlinks are not followed: a sweep
    must never be steered into removing something else.
    """
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd


def match_folder_owner(path: Path) -> int | None:
    """The pid of the referee that made a match folder (its name says), if it says.

    For people and tests only: the pid is its referee's in that referee's pid namespace.
    """
    owner = path.name.removeprefix(MATCH_FOLDER_PREFIX).split("-")[0]
    return int(owner) if owner.isdigit() else None


def run_tag(run: str | None = None) -> str:
    """A short tag of ``run`` (this process's run by default) for match folders' names."""
    return hashlib.sha256((run or this_run()).encode()).hexdigest()[:8]


def match_folder_run_tag(path: Path) -> str | None:
    """The run tag in a match folder's name; None for a folder named before runs were."""
    parts = path.name.removeprefix(MATCH_FOLDER_PREFIX).split("-")
    return parts[1] if len(parts) == 4 else None


def match_folder_in_use(path: Path) -> bool:
    """Whether a live referee holds this match folder (it holds the folder's lock)."""
    if not path.name.endswith(LOCKED_SUFFIX):
        return _unlocked_folder_in_use(path)
    try:
        lock = _lock_folder(path)
    except OSError:  # gone, or no folder
        return False
    if lock is None:
        return True
    os.close(lock)
    return False


def sweep_stale_match_folders() -> list[Path]:
    """Remove match folders whose referee is gone (SIGKILL, a crashed worker); returns them.

    A referee stopped any other way removes its own folder; this catches what it could not.
    A folder whose lock can be taken has no live referee, whatever pid its name shows.
    """
    swept = []
    for path in Path(tempfile.gettempdir()).glob(f"{MATCH_FOLDER_PREFIX}*"):
        if not path.name.endswith(LOCKED_SUFFIX):
            if _unlocked_folder_in_use(path):
                continue
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                lock = _lock_folder(path)
            except OSError:
                continue
            if lock is None:
                continue
            try:  # removed while locked, so a new referee cannot take it meanwhile
                shutil.rmtree(path, ignore_errors=True)
            finally:
                os.close(lock)
        swept.append(path)
    return swept


def _unlocked_folder_in_use(path: Path) -> bool:
    """A folder of a referee from before the lock: in use unless its pid is gone.

    Wrong for a referee in another pid namespace, which is why folders are locked now.
    """
    pid = match_folder_owner(path)
    if pid is None or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, someone else's
        pass
    return True
