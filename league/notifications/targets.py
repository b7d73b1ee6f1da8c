"""Webhook targets are people's outside servers, never the league's own network.

A target is refused when any address its host resolves to is loopback, private, link-local,
multicast, reserved, unspecified or otherwise not global (an IPv4 address mapped into IPv6 is
judged as the IPv4 one). The check runs when the address is saved and again at every
delivery, and a delivery then connects to the very IP it checked (the ``Host`` header and
TLS's server name stay the URL's), so a name that resolves elsewhere a second later (DNS
rebinding) cannot move the connection. Nothing connects before the check passes.

``LEAGUE_WEBHOOK_ALLOWED_ADDRESSES`` lists networks allowed anyway: a private deployment's
receivers, or the tests' receiver on 127.0.0.1. Empty by default.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

from django.conf import settings

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
MAX_URL = 500
KEEP = 200
"""Characters of a receiver's answer kept in the delivery log."""
READ = 4096
"""Bytes of a receiver's answer ever read: the rest is left unread on the closed socket."""


_resolve = socket.getaddrinfo
_connect = socket.create_connection
"""The only ways out of this module (the tests replace them to see that nothing passes)."""


class TargetError(ValueError):
    """A webhook address refused; the message says why, in words."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    ms: int


def parse(url: str) -> Target:
    """The parts of a webhook address, or ``TargetError``."""
    url = url.strip()
    if len(url) > MAX_URL:
        raise TargetError(f"the address is over {MAX_URL} characters")
    if not url.isascii() or not url.isprintable() or " " in url:
        # what a request line can carry as it is (a name in another script: its xn-- form)
        raise TargetError("the address may hold printable ASCII only, no spaces; "
                          "percent-encode the rest")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise TargetError(f"not an address: {error}") from None
    if parts.scheme not in ("http", "https"):
        raise TargetError("the address must start with https:// (or http://)")
    if not parts.hostname:
        raise TargetError("the address has no host")
    if parts.username is not None or parts.password is not None:
        raise TargetError("the address may not hold a user name or password; check the "
                          "signature instead")
    path = parts.path or "/"
    if parts.query:
        path += f"?{parts.query}"
    return Target(parts.scheme, parts.hostname, port or (443 if parts.scheme == "https"
                                                        else 80), path)


@cache
def _allowed(networks: tuple[str, ...]) -> tuple[ipaddress.IPv4Network |
                                                 ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(n, strict=False) for n in networks)


def refusal(ip: IP) -> str | None:
    """Why ``ip`` is no place for a webhook, or None."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if any(ip in net for net in _allowed(tuple(settings.LEAGUE_WEBHOOK_ALLOWED_ADDRESSES))):
        return None
    # the most telling word first: 127/8 and 169.254/16 are "private" to ipaddress too
    for what, test in (("a loopback", ip.is_loopback), ("a link-local", ip.is_link_local),
                       ("a multicast", ip.is_multicast), ("an unspecified", ip.is_unspecified),
                       ("a reserved", ip.is_reserved), ("a private", ip.is_private)):
        if test:
            return f"{ip}, {what} address"
    if not ip.is_global:  # shared address space (100.64/10) and the like
        return f"{ip}, not a public address"
    return None


def resolve(target: Target) -> IP:
    """The address to connect to: every address the host resolves to is checked, and the
    first is used; ``TargetError`` if any is refused or none is found. No connection."""
    try:
        infos = _resolve(target.host, target.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise TargetError(f"{target.host} cannot be resolved ({error})") from None
    ips = [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos]
    if not ips:
        raise TargetError(f"{target.host} resolves to no address")
    for ip in ips:
        if why := refusal(ip):
            raise TargetError(f"refused: {target.host} resolves to {why}")
    return ips[0]


def check(url: str) -> str:
    """``url`` as kept, once it parses and resolves to public addresses only."""
    resolve(parse(url))
    return url.strip()


class _Pinned(http.client.HTTPConnection):
    """HTTP to one checked IP, the URL's host in the ``Host`` header."""

    def __init__(self, target: Target, ip: IP, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._ip = ip
        self.raw: socket.socket | None = None
        """The socket, kept past ``close()`` (which a response that closes the connection
        calls at once, its reads going on through a file of the same socket)."""

    def connect(self) -> None:
        self.sock = self.raw = _connect((str(self._ip), self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    """HTTPS to one checked IP; the certificate is checked against the URL's host."""

    def __init__(self, target: Target, ip: IP, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout,
                         context=ssl.create_default_context())
        self._ip = ip
        self.raw: socket.socket | None = None

    def connect(self) -> None:
        sock = _connect((str(self._ip), self.port), self.timeout)
        self.sock = self.raw = self._context.wrap_socket(sock, server_hostname=self.host)


def _shut(connection: _Pinned | _PinnedTLS) -> None:
    with contextlib.suppress(OSError):
        if connection.raw is not None:
            connection.raw.shutdown(socket.SHUT_RDWR)


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``url`` after checking where it resolves (``TargetError``, nothing
    sent); ``OSError`` (a timeout included) when the connection fails. Redirects are
    answers like any other (never followed); at most ``READ`` bytes of the answer are read."""
    target = parse(url)
    ip = resolve(target)
    timeout = settings.LEAGUE_WEBHOOK_TIMEOUT
    connection = (_PinnedTLS if target.scheme == "https" else _Pinned)(target, ip, timeout)
    began = time.monotonic()
    # the timeout bounds each read, so a receiver dripping a byte at a time could hold the
    # worker for long: past twice the timeout in all, its socket is shut
    cutoff = threading.Timer(2 * timeout, _shut, (connection,))
    cutoff.start()
    cut_off = TimeoutError(f"no whole answer within {2 * timeout:g} s")
    try:
        connection.request("POST", target.path, body=body, headers={
            "Content-Type": "application/json", "User-Agent": "botleague-webhooks",
            "Connection": "close", **headers})
        response = connection.getresponse()
        text = response.read(READ).decode("utf-8", "replace")
    except http.client.HTTPException as error:  # a garbled answer: as a failed connection
        if time.monotonic() - began >= 2 * timeout:
            raise cut_off from None
        raise OSError(f"bad answer: {type(error).__name__}") from None
    except OSError:
        # the cutoff shut the socket mid-read: what the reader then sees (a reset, an
        # empty read) depends on timing; it is the cutoff either way
        if time.monotonic() - began >= 2 * timeout:
            raise cut_off from None
        raise
    finally:
        cutoff.cancel()
        connection.close()
    if time.monotonic() - began >= 2 * timeout:
        raise cut_off
    return Answer(response.status, text[:KEEP], round((time.monotonic() - began) * 1000))
