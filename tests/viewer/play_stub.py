"""A stand-in for the league's play API (docs/play.md), for looking at and testing the play
page's boards without a league: one game per game id against a built-in player, moved by
the engine in this process. The page, its modules and its stylesheets are the real files;
only the server is small. The league's own API is tested with real workers and sandboxed
bots in tests/league/test_play_browser.py.

    python -m tests.viewer.play_stub 8120      # then open http://127.0.0.1:8120/play/stones/
"""

from __future__ import annotations

import json
import mimetypes
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import games
import viewer
from games.players import make_player
from replay import MoveRecord
from replay.frames import FrameSource

ROOT = Path(__file__).resolve().parents[2]
SITE_CSS = ROOT / "league" / "web" / "static" / "web"
OPPONENTS = {"stones": "random", "blokus_duo": "random", "wizard_duel": "random"}
HUMAN_MOVE_MS = 300_000
HUMAN_GAME_MS = 1_800_000
BOT_MOVE_MS = 1_000
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Play {title} · botleague</title><link rel="icon" href="data:,">
<script type="importmap">{{"imports": {{"botleague-viewer/": "/static/viewer/"}}}}</script>
<link rel="stylesheet" href="/static/web/site.css">
<link rel="stylesheet" href="/static/viewer/viewer.css">
<link rel="stylesheet" href="/static/viewer/play.css">
</head><body><header><a class="brand" href="/">botleague</a></header><main>
<h1>{title} <small>match {match} · <a href="/games/{game}/#rules" class="play-rules"
target="_blank" rel="noopener">the rules</a></small></h1>
<script type="application/json" id="play-data">{data}</script>
<section class="card" id="play-card">
<div id="play" data-play="play-data"><p class="muted">Loading the board…</p></div>
</section>
<script type="module" src="/static/viewer/play.js"></script>
</main></body></html>"""


class StubMatch:
    """One game: the human on ``seat``, a built-in player on the others."""

    def __init__(self, number: int, game_id: str, seat: int = 0, seed: int = 3,
                 options: dict[str, Any] | None = None, bot_delay: float = 0.15) -> None:
        self.number = number
        self.game = games.make_game(game_id, options)
        self.game_id = game_id
        self.seat = seat
        self.seed = seed
        self.state = self.game.new_state(seed)
        self.moves: list[MoveRecord] = []
        self.bot_delay = bot_delay
        self.changed = threading.Condition()
        self.turn_started = time.monotonic()
        self.human_used = 0.0
        self.refuse_next: str | None = None
        """An error to answer the next move with (a test's server-side refusal)."""
        name = OPPONENTS.get(game_id, "random")
        self.bots = {s: make_player(self.game, name, s, seed=seed + s, time_limit=0.05)
                     for s in range(self.game.num_players) if s != seat}
        self.names = {s: ("you (stub)" if s == seat else name)
                      for s in range(self.game.num_players)}
        self._bot_turn()

    # -- the API's answers ---------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        return {"match": self.number, "game": self.game_id, "seat": self.seat,
                "state_url": f"/api/play/{self.game_id}/",
                "move_url": f"/api/play/{self.game_id}/move/",
                "match_url": f"/matches/{self.number}/", "title": self.game.title,
                "options": self.game.options, "assets": self.game.viewer_assets()}

    def snapshot(self) -> dict[str, Any]:
        with self.changed:
            return self._snapshot()

    def _snapshot(self) -> dict[str, Any]:
        hidden = self.game.hidden_information
        source = FrameSource(self.game_id, self.game.options, self.seed, self.moves)
        step = len(self.moves)
        frame = source.frames(step, step + 1, self.seat)[0]  # the seat's own view
        if hidden and frame["move"] and frame["move"]["seat"] != self.seat:
            frame["move"]["move"] = None
        to_move = self.state.to_move
        yours = to_move == self.seat
        running = time.monotonic() - self.turn_started
        result = self.state.result
        over = result is not None
        clocks = []
        for s in range(self.game.num_players):
            moving = to_move == s and not over
            if s == self.seat:
                clocks.append({"seat": s, "move_ms": HUMAN_MOVE_MS - int(
                    1000 * running if moving else 0), "game_ms": int(
                    HUMAN_GAME_MS - 1000 * (self.human_used + (running if moving else 0))),
                    "running": moving})
            else:
                clocks.append({"seat": s, "move_ms": BOT_MOVE_MS, "game_ms": None,
                               "running": moving})
        out: dict[str, Any] = {
            "match": self.number, "game": self.game_id,
            "status": "finished" if over else "running", "seat": self.seat,
            "players": [{"seat": s, "name": n, "human": s == self.seat}
                        for s, n in self.names.items()],
            "step": step, "to_move": to_move, "your_turn": yours and not over,
            "legal_moves": self.state.legal_moves() if yours and not over else [],
            "frame": frame,
            "moves": [{"seat": m.seat, "move": None if hidden and m.seat != self.seat
                       else m.move, "seconds": m.time} for m in self.moves],
            "clocks": clocks, "result": None, "message": None,
        }
        if result is not None:
            out["result"] = {"text": result.summary(), "winner": result.winner,
                             "scores": list(result.scores), "reason": result.reason}
            if self.game.num_players == 1:
                out["result"]["bots_on_seed"] = [
                    {"bot": "greedy", "score": 1200, "match": 44},
                    {"bot": "random", "score": 310, "match": 45}]
        return out

    def wait(self, since: int | None, timeout: float = 10) -> dict[str, Any]:
        with self.changed:
            if since is not None:
                self.changed.wait_for(lambda: len(self.moves) > since or
                                      self.state.is_over(), timeout)
            return self._snapshot()

    def move(self, text: str, step: int | None) -> tuple[int, dict[str, Any]]:
        with self.changed:
            if self.state.is_over():
                return 409, {"error": "the game is over"}
            if self.refuse_next:
                error, self.refuse_next = self.refuse_next, None
                return 400, {"error": error}
            if self.state.to_move != self.seat or (step is not None and step != len(self.moves)):
                return 409, {"error": "not your turn"}
            try:
                probe = self.state.copy()
                probe.apply(text)
            except games.GameError as error:
                return 400, {"error": f"illegal move: {error}"}
            self._play(self.seat, text, time.monotonic() - self.turn_started)
        self._bot_turn()
        return 200, {"accepted": True}

    # -- moving ----------------------------------------------------------------------------
    def _play(self, seat: int, move: str, seconds: float) -> None:
        if seat == self.seat:
            self.human_used += seconds
        self.state.apply(move)
        self.moves.append(MoveRecord(seat, self.state.history[-1], round(seconds, 4)))
        self.turn_started = time.monotonic()
        self.changed.notify_all()

    def _bot_turn(self) -> None:
        seat = self.state.to_move
        if seat is None or seat == self.seat:
            return

        def reply() -> None:
            time.sleep(self.bot_delay)
            with self.changed:
                move = self.bots[seat].choose(self.state.observation(seat))
                self._play(seat, move, self.bot_delay)
            self._bot_turn()

        threading.Thread(target=reply, daemon=True).start()


class Handler(BaseHTTPRequestHandler):
    server: StubServer

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def _send(self, code: int, body: bytes, kind: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, code: int, data: Any) -> None:
        self._send(code, json.dumps(data).encode(), "application/json")

    def do_GET(self) -> None:
        url = urlparse(self.path)
        parts = [p for p in url.path.split("/") if p]
        if parts[:2] == ["static", "viewer"] or parts[:2] == ["static", "web"]:
            base = viewer.STATIC if parts[1] == "viewer" else SITE_CSS
            path = (base / "/".join(parts[2:])).resolve()
            if base.resolve() not in path.parents or not path.is_file():
                return self._send(404, b"not found", "text/plain")
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if path.suffix == ".js":
                kind = "text/javascript"
            return self._send(200, path.read_bytes(), kind)
        key = parts[2] if parts[:1] == ["api"] and len(parts) > 2 else parts[-1]
        match = self.server.matches.get(key) if parts else None
        if match is None:
            return self._send(404, b"not found", "text/plain")
        if parts[0] == "play":
            data = json.dumps(match.data()).replace("<", "\\u003c")
            page = PAGE.format(title=match.game.title, match=match.number, data=data,
                               game=match.game_id)
            return self._send(200, page.encode(), "text/html; charset=utf-8")
        if parts[:1] == ["api"]:
            since = parse_qs(url.query).get("since", [None])[0]
            return self._json(200, match.wait(None if since is None else int(since)))
        return self._send(404, b"not found", "text/plain")

    def do_POST(self) -> None:
        parts = [p for p in urlparse(self.path).path.split("/") if p]
        match = self.server.matches.get(parts[2]) if len(parts) > 3 else None
        if match is None or parts[3] != "move":
            return self._send(404, b"not found", "text/plain")
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        code, answer = match.move(str(body.get("move", "")), body.get("step"))
        return self._json(code, answer)


class StubServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, matches: dict[str, StubMatch]) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.matches = matches


def serve(port: int, **choices: dict[str, Any]) -> StubServer:
    """A stub on ``port`` with one match per game (``choices[game]``: StubMatch's keywords),
    serving in a thread; ``shutdown()`` stops it."""
    matches = {game: StubMatch(i + 1, game, **choices.get(game, {}))
               for i, game in enumerate(games.game_ids())}
    server = StubServer(port, matches)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    stub = serve(int(sys.argv[1]) if len(sys.argv) > 1 else 8120)
    print(f"http://127.0.0.1:{stub.server_address[1]}/play/<game>/", flush=True)
    threading.Event().wait()
