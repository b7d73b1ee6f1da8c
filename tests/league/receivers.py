"""Real local servers for the notification tests: an HTTP receiver thread and an SMTP server
(aiosmtpd), both on 127.0.0.1 only, both recording what reached them."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Delivery:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """What reached the HTTP receiver; ``status`` is what it answers (``location`` a
    redirect's target)."""

    url: str = ""
    status: int = 200
    location: str = ""
    delay: float = 0.0
    """Seconds it waits before answering."""
    drip: float = 0.0
    """Seconds between the bytes of its answer's body (0: all at once)."""
    deliveries: list[Delivery] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def got(self) -> list[Delivery]:
        with self.lock:
            return list(self.deliveries)


@contextmanager
def http_receiver(status: int = 200) -> Iterator[Receiver]:
    receiver = Receiver(status=status)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # cut off
                self.answer()

        def answer(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with receiver.lock:
                receiver.deliveries.append(Delivery(self.path, dict(self.headers), body))
            time.sleep(receiver.delay)
            self.send_response(receiver.status)
            if receiver.location:
                self.send_header("Location", receiver.location)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            answer = b"thanks " * 100  # longer than the delivery log keeps
            if not receiver.drip:
                self.wfile.write(answer)
                return
            for byte in answer:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(receiver.drip)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True  # a handler still dripping is not waited for at the end
    server.block_on_close = False
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Mailbox:
    port: int = 0
    messages: list[Message] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def got(self) -> list[Message]:
        with self.lock:
            return list(self.messages)


@contextmanager
def smtp_server() -> Iterator[Mailbox]:
    """aiosmtpd's controller: a real SMTP server in a thread, on a free port of 127.0.0.1."""
    from aiosmtpd.controller import Controller

    box = Mailbox()

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            with box.lock:
                box.messages.append(message_from_bytes(envelope.content))
            return "250 OK"

    with socket.socket() as probe:  # its start-up check connects to the port it is given
        probe.bind(("127.0.0.1", 0))
        box.port = probe.getsockname()[1]
    controller = Controller(Handler(), hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()
