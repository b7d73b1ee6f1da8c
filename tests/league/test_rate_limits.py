"""The embedded default's count store (``league.rate_limits.SqliteStorage``): processes that
start together on a fresh file all count, and every hit is counted once.

gunicorn's workers on a fresh clone make their first connection to ``limits.sqlite3`` at
nearly the same moment; turning the new file to WAL once failed in one of them with
"database is locked" (a fresh-clone CI run failed on it). Each round here starts several
processes (of a few threads each) at a barrier on a new file, many rounds over."""

from __future__ import annotations

import multiprocessing
import threading
import traceback
from pathlib import Path

from league.rate_limits import SqliteStorage

PROCESSES = 8
ROUNDS = 60
HITS = 5
THREADS = 3


def _count(folder: str, barrier: multiprocessing.synchronize.Barrier,
           errors: multiprocessing.Queue) -> None:
    def hits(store: SqliteStorage, round_: int) -> None:
        try:
            for _ in range(HITS):
                store.incr("signup/1.2.3.4", 3600)
        except Exception:  # reported to the test, which fails on it
            errors.put(f"round {round_}: {traceback.format_exc()}")

    for round_ in range(ROUNDS):
        store = SqliteStorage(f"{folder}/limits-{round_}.sqlite3")
        # each thread its own connection, as gunicorn's threads have
        threads = [threading.Thread(target=hits, args=(store, round_)) for _ in range(THREADS)]
        barrier.wait(timeout=60)
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


def test_processes_starting_together_on_a_fresh_file_all_count(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(PROCESSES)
    errors = context.Queue()
    processes = [context.Process(target=_count, args=(str(tmp_path), barrier, errors))
                 for _ in range(PROCESSES)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
    failures = []
    while not errors.empty():
        failures.append(errors.get())
    assert not failures, f"{len(failures)} failed, the first:\n{failures[0]}"
    assert [p.exitcode for p in processes] == [0] * PROCESSES
    for round_ in range(ROUNDS):
        store = SqliteStorage(str(tmp_path / f"limits-{round_}.sqlite3"))
        assert store.get("signup/1.2.3.4") == PROCESSES * THREADS * HITS, round_
