"""How many pages the web server is answering right now, counted across its processes.

A heavy read waits its turn while any page is being answered (``league.asgi.HeavyLane``),
and the processes share the machine's cores: a heavy read in one process slows a page in
another as surely as one beside it. So the count lives in memory shared by every process
gunicorn forks: made here when ``league.gunicorn_conf`` is read, in the server's first
process, before any worker exists. A process started some other way (a test's server in a
thread) has a count of its own, which is the same thing for one process.
"""

from __future__ import annotations

import multiprocessing

_COUNT = multiprocessing.Value("l", 0)


def began() -> None:
    with _COUNT.get_lock():
        _COUNT.value += 1


def ended() -> None:
    with _COUNT.get_lock():
        _COUNT.value -= 1


def answering() -> int:
    """Pages being answered now by any of the server's processes (read without the lock: a
    moment's staleness only moves a heavy read's start by a poll)."""
    return int(_COUNT.value)
