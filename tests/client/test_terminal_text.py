"""The terminal commands show the league's text escaped (``client.api.terminal_safe``):
a tournament's name, note and entries, and a refusal's reason, as typed by other people, with
no control, bidi or invisible character reaching the terminal. Rows stored before the league
refused such text exist, and a league may be anyone's: the client does not trust it.

A stand-in league (a small HTTP server in this process) answers as the API does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from client.api import terminal_safe

ROOT = Path(__file__).resolve().parents[2]
NAME = "\x1b[31mred\x07 cup"
TOURNAMENT = {
    "id": 5, "name": NAME, "game": "stones", "format": "swiss", "state": "registration",
    "official": False, "registration_opens": "2026-05-01T18:00:00Z",
    "registration_closes": "2026-05-02T18:00:00Z", "starts_at": "2026-05-03T18:00:00Z",
    "started_at": None, "finished_at": None, "entered": 1, "field_limit": 8,
    "note": "line one\nline \u202eowt\x1b]0;window title\x07", "table": [],
    "entries": [{"seed": 1, "bot": "bot\x9b2J", "owner": "m\u200ballory", "version": None}],
    "rounds_paired": []}


class League(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/api/tournaments/5/":
            self._answer(200, TOURNAMENT)
        else:
            self._answer(404, {"detail": "no tournament \x1b[2J\x1b[Hhere"})

    def _answer(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def league() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), League)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _show(url: str, tournament: int) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOTLEAGUE_")}
    return subprocess.run([sys.executable, "-m", "client", "tournament", "show",
                           str(tournament), "--url", url], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def _unsafe(text: str) -> list[str]:
    return [c for c in text if c not in "\n" and (not c.isprintable() or c == "\u200b")]


def test_tournament_show_prints_the_leagues_text_escaped(league: str) -> None:
    done = _show(league, 5)
    assert done.returncode == 0, done.stderr
    assert not _unsafe(done.stdout), done.stdout
    assert "\\x1b[31mred\\x07 cup" in done.stdout
    assert "line one\nline \\u202eowt\\x1b]0;window title\\x07" in done.stdout
    assert "bot\\x9b2J" in done.stdout and "m\\u200ballory" in done.stdout


def test_a_refusal_is_printed_escaped(league: str) -> None:
    done = _show(league, 6)
    assert done.returncode == 1
    assert not _unsafe(done.stderr), done.stderr
    assert "no tournament \\x1b[2J\\x1b[Hhere" in done.stderr


@pytest.mark.parametrize(("text", "shown"), [
    ("plain text, ünïcode, 名前 🎲", "plain text, ünïcode, 名前 🎲"),
    ("two\nlines\tand a tab", "two\nlines\tand a tab"),
    ("\x1b[31m\x07\x00\x7f\r", "\\x1b[31m\\x07\\x00\\x7f\\x0d"),
    ("\x85\x9b", "\\x85\\x9b"),
    ("\u202e\u2066\u200b\ufeff\u2028", "\\u202e\\u2066\\u200b\\ufeff\\u2028"),
    ("\U000e0041\ue000\ud800", "\\U000e0041\\ue000\\ud800"),
])
def test_terminal_safe_escapes_what_a_terminal_would_act_on(text: str, shown: str) -> None:
    assert terminal_safe(text) == shown
    assert terminal_safe(shown) == shown  # applied twice, the same
