"""Talking to a running bot: non-blocking writes, line reads against a deadline, capped logs.

A ``Transport`` is the raw byte plumbing a backend provides (pipes for processes, the attach
socket for containers). A ``Channel`` adds the protocol's rules on top: one reply line per
request, a cap on line length and on total output, and stderr drained into a capped log
whose tail is kept. Nothing here trusts the bot: it may never read, never write, write
forever, or die half-way through a line.
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import os
import select
import socket
import struct
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

OUT = "out"
ERR = "err"
_CHUNK = 1 << 16


class Transport(ABC):
    """Byte plumbing to one bot: what to poll, how to read, write and close its input."""

    @abstractmethod
    def read_fds(self) -> list[int]: ...

    @abstractmethod
    def write_fd(self) -> int | None: ...

    @abstractmethod
    def read(self, fd: int) -> list[tuple[str, bytes]]:
        """Chunks now available on ``fd`` as (stream, data); empty data means that stream ended."""

    def write(self, data: memoryview) -> int:
        fd = self.write_fd()
        if fd is None:
            raise BrokenPipeError(errno.EPIPE, "input closed")
        return os.write(fd, data)

    @abstractmethod
    def close_input(self) -> None: ...

    @abstractmethod
    def close(self) -> None: ...


class PipeTransport(Transport):
    """A child process's stdin, stdout and stderr pipes."""

    def __init__(self, stdin: int, stdout: int, stderr: int) -> None:
        for fd in (stdin, stdout, stderr):
            os.set_blocking(fd, False)
        self._stdin: int | None = stdin
        self._streams = {stdout: OUT, stderr: ERR}

    def read_fds(self) -> list[int]:
        return list(self._streams)

    def write_fd(self) -> int | None:
        return self._stdin

    def read(self, fd: int) -> list[tuple[str, bytes]]:
        stream = self._streams[fd]
        try:
            data = os.read(fd, _CHUNK)
        except BlockingIOError:
            return []
        if not data:
            del self._streams[fd]
            os.close(fd)
        return [(stream, data)]

    def close_input(self) -> None:
        if self._stdin is not None:
            os.close(self._stdin)
            self._stdin = None

    def close(self) -> None:
        self.close_input()
        for fd in list(self._streams):
            os.close(fd)
        self._streams.clear()


class MultiplexedSocketTransport(Transport):
    """Docker's attach socket: stdin in, stdout and stderr out as framed chunks.

    Each frame is an 8-byte header (stream id, three zero bytes, big-endian length) and data.
    """

    _HEADER = struct.Struct(">BxxxI")

    def __init__(self, sock: socket.socket) -> None:
        sock.setblocking(False)
        self._sock: socket.socket | None = sock
        self._fd = sock.fileno()
        self._buf = bytearray()
        self._input_open = True

    def read_fds(self) -> list[int]:
        return [self._fd] if self._sock is not None else []

    def write_fd(self) -> int | None:
        return self._fd if self._sock is not None and self._input_open else None

    def write(self, data: memoryview) -> int:
        if self._sock is None or not self._input_open:
            raise BrokenPipeError(errno.EPIPE, "input closed")
        return self._sock.send(data)

    def read(self, fd: int) -> list[tuple[str, bytes]]:
        assert self._sock is not None
        try:
            data = self._sock.recv(_CHUNK)
        except (BlockingIOError, InterruptedError):
            return []
        except OSError:
            data = b""
        if not data:
            self.close()
            return [(OUT, b""), (ERR, b"")]
        self._buf += data
        chunks = []
        while len(self._buf) >= 8:
            kind, size = self._HEADER.unpack_from(self._buf)
            if len(self._buf) < 8 + size:
                break
            payload = bytes(self._buf[8:8 + size])
            del self._buf[:8 + size]
            chunks.append((ERR if kind == 2 else OUT, payload))
        return chunks

    def close_input(self) -> None:
        if self._sock is not None and self._input_open:
            self._input_open = False
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        if self._sock is not None:
            # shutdown acts on the connection at once; close alone waits for every other
            # reference to the socket (the HTTP response still holds one) to go.
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()
            self._sock = None


class LogTail:
    """The last ``cap`` bytes of a stream, how many bytes came before them, and the turn in
    which each byte arrived (as marks: the stream offset where a turn's bytes begin)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.buf = bytearray()
        self.total = 0
        self.marks: list[tuple[int, int]] = []

    def add(self, data: bytes, turn: int = -1) -> None:
        if data and (not self.marks or self.marks[-1][1] != turn):
            self.marks.append((self.total, turn))
        self.total += len(data)
        self.buf += data
        if len(self.buf) > self.cap:
            del self.buf[:len(self.buf) - self.cap]
            self._forget_marks()

    def _forget_marks(self) -> None:
        """Marks before the kept tail are useless, but the last of them still names the turn
        of the tail's first bytes."""
        start = self.total - len(self.buf)
        keep = bisect.bisect_right(self.marks, start, key=lambda m: m[0]) - 1
        if keep > 0:
            del self.marks[:keep]

    def text(self) -> str:
        dropped = self.total - len(self.buf)
        head = f"[... {dropped} earlier bytes dropped ...]\n" if dropped else ""
        return head + self.buf.decode("utf-8", "replace")

    def turns(self) -> list[int]:
        """The turn of each line of ``text()`` (split on "\\n", a final empty piece left
        out): the turn in which the line's first byte arrived; -1 for the dropped-bytes note."""
        start = self.total - len(self.buf)
        out = [-1] if start else []
        offsets = [m[0] for m in self.marks]
        pos = 0
        while pos < len(self.buf):
            i = bisect.bisect_right(offsets, start + pos) - 1
            out.append(self.marks[i][1] if i >= 0 else -1)
            end = self.buf.find(b"\n", pos)
            if end < 0:
                break
            pos = end + 1
        return out


class Status(Enum):
    LINE = "line"
    TIMEOUT = "timeout"
    EOF = "eof"
    LINE_TOO_LONG = "line-too-long"
    OUTPUT_LIMIT = "output-limit"


@dataclass(frozen=True)
class Reply:
    status: Status
    line: bytes = b""


class Channel:
    """Request/reply over a transport, with the protocol's caps."""

    def __init__(self, transport: Transport, max_line: int, max_output: int,
                 log_bytes: int) -> None:
        self.transport = transport
        self.max_line = max_line
        self.max_output = max_output
        self.log = LogTail(log_bytes)
        self.turn = -1
        """The turn stderr read now belongs to (the referee moves it on; see ``LogTail``)."""
        self.out_total = 0
        self._out = bytearray()
        self._pending = bytearray()
        self._out_open = True
        self._poll = select.poll()
        self._registered: dict[int, int] = {}

    # -- public ---------------------------------------------------------------------------
    def send(self, data: bytes) -> None:
        """Queue bytes for the bot; they are written while waiting for its reply."""
        self._pending += data

    def write_now(self) -> None:
        """Write what the pipe takes without waiting (the rest goes out during ``request``)."""
        self._flush()

    def request(self, deadline: float) -> Reply:
        """Write what is queued and wait until ``deadline`` (monotonic) for one reply line."""
        self._flush()
        while True:
            if self.out_total > self.max_output:
                return Reply(Status.OUTPUT_LIMIT)
            reply = self._take_line()
            if reply is not None:
                return reply
            if not self._out_open:
                return Reply(Status.EOF)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Reply(Status.TIMEOUT)
            self._wait(remaining)

    def drain(self, deadline: float) -> None:
        """Read remaining output (into the log) until both streams end or ``deadline``."""
        while self.transport.read_fds():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            self._wait(remaining, want_write=False)

    def finish(self, deadline: float) -> None:
        """Write what is queued (until ``deadline``), close the bot's input, read to the end."""
        finish_all([self], deadline)

    def close_input(self) -> None:
        self._pending.clear()
        self.transport.close_input()

    def read_waiting(self) -> None:
        """Take in what the bot already wrote, without waiting (before its turn moves on, so
        lines it wrote after its last move count for that move)."""
        self._wait(0.0, want_write=False)

    # -- internals ------------------------------------------------------------------------
    def _take_line(self) -> Reply | None:
        end = self._out.find(b"\n")
        if end < 0:
            if len(self._out) > self.max_line:
                return Reply(Status.LINE_TOO_LONG)
            return None
        if end > self.max_line:
            return Reply(Status.LINE_TOO_LONG)
        line = bytes(self._out[:end])
        del self._out[:end + 1]
        return Reply(Status.LINE, line)

    def _flush(self) -> None:
        while self._pending:
            try:
                # Released before the handlers run: a failed write's traceback still holds the
                # view, and a buffer with a view on it cannot be cleared (BufferError).
                with memoryview(self._pending) as view:
                    written = self.transport.write(view)
            except BlockingIOError:
                return
            except OSError:  # EPIPE, ECONNRESET: the bot closed its input or died
                self._pending.clear()  # what it wrote is still read
                return
            del self._pending[:written]

    def _wanted(self, want_write: bool) -> dict[int, int]:
        """The fds to poll and for what: output always, input while something is queued."""
        wanted: dict[int, int] = {fd: select.POLLIN for fd in self.transport.read_fds()}
        wfd = self.transport.write_fd()
        if want_write and self._pending and wfd is not None:
            wanted[wfd] = wanted.get(wfd, 0) | select.POLLOUT
        return wanted

    def _wait(self, timeout: float, want_write: bool = True) -> None:
        _sync_registration(self._poll, self._registered, self._wanted(want_write))
        if not self._registered:
            time.sleep(min(timeout, 0.01))
            return
        for fd, events in self._poll.poll(max(timeout * 1000.0, 0.0)):
            self._handle(fd, events)

    def _handle(self, fd: int, events: int) -> None:
        """Act on what ``poll`` said about one of this channel's fds."""
        if events & select.POLLOUT:
            self._flush()
        if events & (select.POLLIN | select.POLLHUP | select.POLLERR) \
                and fd in self.transport.read_fds():
            self._absorb(self.transport.read(fd))
        if events & (select.POLLHUP | select.POLLERR) and fd == self.transport.write_fd() \
                and not events & select.POLLIN:
            self._pending.clear()

    def _absorb(self, chunks: list[tuple[str, bytes]]) -> None:
        for stream, data in chunks:
            if stream == ERR:
                self.log.add(data, self.turn)
            elif not data:
                self._out_open = False
            else:
                self.out_total += len(data)
                # Past the cap nothing the bot says can count: it is counted, never kept. This
                # holds after ``end`` too, when no request is left to notice the cap.
                if self.out_total <= self.max_output:
                    self._out += data


def finish_all(channels: Sequence[Channel], deadline: float) -> None:
    """Finish every channel at once, in one poll loop, against the same ``deadline``.

    Each channel's queued bytes (the ``end`` message) are written, its input is closed as
    soon as they are out, and its output is read until both streams end. Doing this for all
    bots together, not one after another, keeps a bot that never stops printing (or never
    closes its output) from using up the others' grace: one bot's behaviour after the end
    must not change another's record.
    """
    poll = select.poll()
    registered: dict[int, int] = {}
    while True:
        wanted: dict[int, int] = {}
        owner: dict[int, Channel] = {}
        for channel in channels:
            if not channel._pending or channel.transport.write_fd() is None:
                channel.close_input()  # nothing left to tell it: its input ends now
            for fd, mask in channel._wanted(want_write=True).items():
                wanted[fd] = mask
                owner[fd] = channel
        remaining = deadline - time.monotonic()
        if not wanted or remaining <= 0:
            break
        _sync_registration(poll, registered, wanted)
        for fd, events in poll.poll(remaining * 1000.0):
            if fd in owner:
                owner[fd]._handle(fd, events)
    for channel in channels:
        channel.close_input()


def _sync_registration(poll: select.poll, registered: dict[int, int],
                       wanted: dict[int, int]) -> None:
    """Make ``poll`` (whose registrations ``registered`` mirrors) watch exactly ``wanted``."""
    for fd in list(registered):
        if fd not in wanted:
            poll.unregister(fd)
            del registered[fd]
    for fd, mask in wanted.items():
        if registered.get(fd) != mask:
            poll.register(fd, mask)
            registered[fd] = mask
