"""``./dev up``'s process logs are rotated (league/logs.py): a file past its size becomes
``name.log.1`` and so on, only a few old ones kept, whole lines in each, nothing lost between
them. ``test_up.py`` checks the same on the running league."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from league.logs import RotatingLog, pump


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_log_past_its_size_moves_to_name_1_and_only_keep_old_files_stay(
        tmp_path: Path) -> None:
    log = RotatingLog(tmp_path / "worker.log", max_bytes=100, keep=2)
    lines = [f"line {n:03d} {'x' * 20}\n".encode() for n in range(40)]  # 30 bytes each
    for line in lines:
        log.write(line)
    log.close()
    kept = files(tmp_path)
    assert sorted(kept) == ["worker.log", "worker.log.1", "worker.log.2"]
    assert all(len(data) <= 100 for data in kept.values())
    # the newest lines, in order, every one whole: the current file last, .2 the oldest
    together = kept["worker.log.2"] + kept["worker.log.1"] + kept["worker.log"]
    assert together == b"".join(lines[-len(together.splitlines()):])
    assert len(together.splitlines()) >= 7


def test_lines_cut_across_writes_are_kept_whole_in_one_file(tmp_path: Path) -> None:
    log = RotatingLog(tmp_path / "web.log", max_bytes=64, keep=5)
    text = b"".join(f"request {n} answered in {n % 7} ms\n".encode() for n in range(30))
    for start in range(0, len(text), 13):  # chunks that end mid-line, as a pipe gives them
        log.write(text[start:start + 13])
    log.write(b"no newline at the end")
    log.close()
    kept = files(tmp_path)
    assert len(kept) == 6, "five old files kept beside the current one"
    for data in kept.values():
        assert data.startswith((b"request", b"no newline")), data[:20]
    assert kept["web.log"].endswith(b"no newline at the end")
    together = b"".join(kept[f"web.log.{n}"] for n in range(5, 0, -1)) + kept["web.log"]
    assert text.endswith(together.removesuffix(b"no newline at the end"))


def test_a_run_appends_to_the_file_an_earlier_run_left(tmp_path: Path) -> None:
    (tmp_path / "beat.log").write_bytes(b"x" * 90 + b"\n")
    log = RotatingLog(tmp_path / "beat.log", max_bytes=100, keep=1)
    log.write(b"a new line\n")
    log.close()
    assert files(tmp_path) == {"beat.log": b"a new line\n", "beat.log.1": b"x" * 90 + b"\n"}


def test_a_child_process_output_reaches_the_log_through_the_pipe(tmp_path: Path) -> None:
    """As ``league.supervise`` starts each process: its stdout and stderr into a pipe that a
    thread copies until the child (and every process holding the pipe) is gone."""
    log = RotatingLog(tmp_path / "ticks.log", max_bytes=10_000, keep=3)
    read, write = os.pipe()
    code = ("import sys\nfor n in range(2000):\n"
            "    out = sys.stderr if n % 2 else sys.stdout\n"
            "    print(f'tick {n} ' + 'x' * 40, file=out, flush=True)")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=write,
                             stderr=subprocess.STDOUT)
    os.close(write)
    copier = threading.Thread(target=pump, args=(read, log))
    copier.start()
    assert child.wait(30) == 0
    copier.join(10)
    assert not copier.is_alive()
    numbers, kept = [], 0
    for name in ("ticks.log.3", "ticks.log.2", "ticks.log.1", "ticks.log"):
        text = (tmp_path / name).read_text()
        kept += len(text)
        numbers += [int(line.split()[1]) for line in text.splitlines()]
    assert numbers == list(range(2000 - len(numbers), 2000))
    # Each file holds the whole lines that fit, however large the chunks the pipe gives (a
    # loaded machine lets the pipe fill up between reads): every file but the newest nearly
    # full, none over.
    sizes = [(tmp_path / f"ticks.log.{n}").stat().st_size for n in (1, 2, 3)]
    assert all(10_000 - 60 < size <= 10_000 for size in sizes), sizes
    assert kept > 3 * (10_000 - 60)


def test_a_chunk_of_many_files_worth_is_spread_over_files_none_over_its_size(
        tmp_path: Path) -> None:
    """A pipe read on a loaded machine brings up to 64 KiB at once: the lines that fit go to
    the current file, the rest to the next ones; only a line longer than a file makes one
    bigger (alone in it)."""
    log = RotatingLog(tmp_path / "ticks.log", max_bytes=100, keep=20)
    lines = [f"line {n:03d} {'x' * 20}\n".encode() for n in range(40)]  # 30 bytes each
    long = b"y" * 250 + b"\n"
    log.write(b"".join(lines[:20]) + long + b"".join(lines[20:]))
    log.close()
    kept = files(tmp_path)
    order = [f"ticks.log.{n}" for n in range(len(kept) - 1, 0, -1)] + ["ticks.log"]
    assert b"".join(kept[name] for name in order) == b"".join(lines[:20]) + long + \
        b"".join(lines[20:])
    assert [kept[name] for name in order if len(kept[name]) > 100] == [long]
    # every file full (three lines) but the newest and the one the long line cut short
    before_long = order.index(next(name for name in order if kept[name] == long)) - 1
    assert all(len(kept[name]) == 90 for i, name in enumerate(order[:-1])
               if kept[name] != long and i != before_long), {n: len(kept[n]) for n in order}
