"""The league's REST API as the terminal commands speak it (``submit``, ``challenge``,
``tournament``): one HTTP client, one way to find the league and the token, one convention
for exit codes. It speaks HTTP through ``requests`` and imports nothing from ``league/``.

Exit status of every command: 0 done; 1 the league refused (its ``detail`` is printed: a bad
field, not yours, no such thing, over a rate); 2 the league could not be reached, refused
the token, or failed.

Everything the league sends is shown through ``terminal_safe``: names and notes are typed by
other people, and an escape sequence in one would be a command to this terminal.
"""

from __future__ import annotations

import argparse
import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import requests
from rich.console import Console

DEFAULT_URL = "http://127.0.0.1:8000"
TOKENS_PAGE = "/account/tokens/"
REFUSALS = {400, 403, 404, 409, 413, 429}
"""Answers that say no to this request (exit 1), as opposed to who is asking (401) or a
league in trouble (5xx): both exit 2."""


_UNSAFE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_KEPT = {"\n", "\t"}


def terminal_safe(text: str) -> str:
    """``text`` with every character a terminal would act on, or that hides or reorders
    text, shown as its escape instead: C0 and C1 controls (``\\x1b``), bidi overrides and
    other format characters (``\\u202e``), separators, unassigned and private-use code
    points. New lines and tabs stay. Printable text comes back as it was, so this may be
    applied twice."""
    if text.isprintable():  # the common case, no character looked at in Python
        return text
    return "".join(char if char in _KEPT or unicodedata.category(char) not in _UNSAFE
                   else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def _safe(value: Any) -> Any:
    """A JSON answer with every string in it (keys too) made ``terminal_safe``."""
    if isinstance(value, str):
        return terminal_safe(value)
    if isinstance(value, list):
        return [_safe(item) for item in value]
    if isinstance(value, dict):
        return {_safe(key): _safe(item) for key, item in value.items()}
    return value


class LeagueError(Exception):
    """Something between here and the league failed; the message is one line to show."""


class Refused(Exception):
    """The league refused the request; the message is its reason."""


def add_connection_args(parser: argparse.ArgumentParser, token_help: str = "") -> None:
    parser.add_argument("--url", help=f"the league's address (BOTLEAGUE_URL; {DEFAULT_URL})")
    parser.add_argument("--token", help=token_help or "an API token from the league's tokens "
                                                      "page (BOTLEAGUE_TOKEN)")


def connect(args: argparse.Namespace, token_needed: bool = True) -> Api:
    """The API client for ``--url``/``--token`` (or ``BOTLEAGUE_URL``/``BOTLEAGUE_TOKEN``)."""
    url = (args.url or os.environ.get("BOTLEAGUE_URL") or DEFAULT_URL).rstrip("/")
    token = (args.token or os.environ.get("BOTLEAGUE_TOKEN", "")).strip()
    if token_needed and not token:
        raise LeagueError(f"no API token: pass --token or set BOTLEAGUE_TOKEN (create one at "
                          f"{url}{TOKENS_PAGE})")
    return Api(url, token)


def consoles() -> tuple[Console, Console]:
    """stdout and stderr. Messages and logs are never re-wrapped; rich would fit tables to
    80 columns when not on a terminal, so pipes and CI logs get room."""
    probe = Console()
    width = None if probe.is_terminal else max(probe.width, 120)
    return (Console(highlight=False, soft_wrap=True, width=width),
            Console(stderr=True, highlight=False, soft_wrap=True, width=width))


Command = Callable[[argparse.Namespace, Console, Console], int]


def guarded(command: Command) -> Callable[[argparse.Namespace], int]:
    """``command`` with the exit code convention: a refusal is 1, a failure 2, one line each."""
    def run(args: argparse.Namespace) -> int:
        out, err = consoles()
        try:
            return command(args, out, err)
        except Refused as refused:
            err.print(f"refused: {terminal_safe(str(refused))}", markup=False)
            return 1
        except LeagueError as error:
            err.print(f"error: {terminal_safe(str(error))}", markup=False)
            return 2
    return run


@dataclass
class Api:
    url: str
    token: str = ""
    session: requests.Session = field(default_factory=requests.Session)

    def __post_init__(self) -> None:
        self.session.headers.update({"Accept": "application/json",
                                     "User-Agent": "botleague-sandbox"})
        if self.token:
            self.session.headers["Authorization"] = f"Bearer {self.token}"

    def get(self, path: str) -> Any:
        return self._call("GET", path)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self._call("POST", path, json=body)

    def delete(self, path: str) -> Any:
        return self._call("DELETE", path)

    def upload(self, *, game: str, name: str, filename: str, data: bytes,
               fields: dict[str, Any] | None = None) -> dict[str, Any]:
        """``fields``: the upload's other form fields (``test`` and its parameters)."""
        version: dict[str, Any] = self._call(
            "POST", "/api/versions/", data={"game": game, "name": name, **(fields or {})},
            files={"file": (filename, data, "application/octet-stream")})
        return version

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            response = self.session.request(method, self.url + path, timeout=60, **kwargs)
        except requests.ConnectionError as error:
            raise LeagueError(f"cannot reach {self.url}: {_reason(error)}") from None
        except requests.RequestException as error:
            raise LeagueError(f"talking to {self.url} failed: {error}") from None
        # a refusal is the league's JSON with a detail; anything else there is not a league
        if response.status_code in REFUSALS and _detail(response, ""):
            raise Refused(_detail(response))
        if not response.ok:
            raise LeagueError(f"{_detail(response)} (HTTP {response.status_code} from "
                              f"{self.url})")
        try:
            return _safe(response.json())
        except ValueError:
            raise LeagueError(f"{self.url} answered with something that is not JSON; is it "
                              "a botleague?") from None


def _reason(error: requests.ConnectionError) -> str:
    """The operating system's words ("[Errno 111] Connection refused"), not urllib3's chain."""
    found = re.findall(r"\[Errno -?\d+\][^'\")]*", str(error))
    return found[-1].strip() if found else "no answer"


def _detail(response: requests.Response, otherwise: str | None = None) -> str:
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        detail = None
    if detail:
        return str(detail)
    if otherwise is not None:
        return otherwise
    return response.reason or "the league refused the request"


def when(value: str | None) -> str:
    """An API time as ``2025-05-01 18:00 UTC`` (``-`` when there is none)."""
    if not value:
        return "-"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
