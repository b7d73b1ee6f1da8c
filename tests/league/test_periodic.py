"""The side thread that runs every match's heartbeat and live moves in a worker process."""

from __future__ import annotations

import os
import threading
import time

from league.ladders.periodic import Every


def test_blocks_share_one_thread_from_match_to_match_and_stop_with_their_block() -> None:
    seen: list[tuple[str, str]] = []

    def record(label: str) -> None:
        seen.append((label, threading.current_thread().name))

    with Every(0.02, lambda: record("a"), "a"), Every(0.03, lambda: record("b"), "b"):
        time.sleep(0.2)
    stopped = len(seen)
    with Every(0.02, lambda: record("c"), "c"):  # the next match
        time.sleep(0.1)
    time.sleep(0.1)
    labels = [label for label, _ in seen]
    assert labels.count("a") >= 3 and labels.count("b") >= 2 and labels.count("c") >= 2
    assert {name for _, name in seen} == {"match-side-work"}, "one thread for every block"
    assert "a" not in labels[stopped:] and "b" not in labels[stopped:], "ran after its block"
    assert len(seen) == stopped + labels.count("c")


def test_a_block_ends_only_once_its_running_action_has_returned() -> None:
    started, done = threading.Event(), threading.Event()

    def slow() -> None:
        started.set()
        time.sleep(0.2)
        done.set()

    with Every(0.01, slow, "slow"):
        assert started.wait(2)
    assert done.is_set(), "the block ended while its action still ran"


def test_a_failing_action_does_not_stop_the_thread() -> None:
    calls = []

    def broken() -> None:
        calls.append(1)
        raise RuntimeError("a bug")

    with Every(0.01, broken, "broken"):
        deadline = time.monotonic() + 10  # a loaded machine logs each failure slowly
        while len(calls) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert len(calls) >= 2


def test_a_forked_child_runs_its_blocks_on_a_thread_of_its_own() -> None:
    with Every(0.01, lambda: None, "parent"):  # the parent's thread exists
        time.sleep(0.03)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a prefork worker's pool process
        ran = threading.Event()
        with Every(0.01, ran.set, "child"):
            ok = ran.wait(2)
        os.write(write, b"1" if ok else b"0")
        os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(pid, 0)
    assert answer == b"1", "the child's block never ran"
