"""The record of a match: enough for the engine to re-derive every frame, plus the logs.

``(game, options, seed, moves)`` replays the match through the engine; a forfeit is
re-applied at the end, so ``replay()`` returns the exact final state, result included.

Format versions: 1 kept each bot's log as text; 2 adds ``log_turns``, the turn each log line
was written in, so a viewer can show a bot's lines at the step it wrote them. Records of
every version load; what a version lacks is left empty.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import games
from games import Result, State

RECORD_VERSION = 2


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def stored_form(fields: dict[str, Any], moves_json: str, result_json: str,
                level: int = 6) -> bytes:
    """A record's stored form from its parts: ``fields`` (``to_json``'s, up to the players),
    then the moves and the result as JSON text already. ``MatchRecord.to_bytes`` is the one
    record's case; the scale generator writes a million replays from moves it serialised
    once (at zlib level 1: ``from_bytes`` reads any level)."""
    head = _compact(fields)
    text = f'{head[:-1]},"moves":{moves_json},"result":{result_json}}}'
    return zlib.compress(text.encode(), level)


@dataclass(frozen=True)
class MoveRecord:
    seat: int
    move: str
    time: float
    """Seconds the bot took (wall clock, start-up included on its first move)."""


@dataclass
class PlayerRecord:
    seat: int
    name: str
    source: str
    language: str = ""
    digest: str = ""
    started: bool = False
    moves: int = 0
    time_used: float = 0.0
    max_move_time: float = 0.0
    time_bank_left: float = 0.0
    exit: str = ""
    log: str = ""
    log_turns: list[int] = field(default_factory=list)
    """For each line of ``log`` (split on "\\n"), the turn it was written in: the number of
    moves played when the referee asked this bot for a move, or after its last one; -1 where
    unknown (the note that earlier bytes were dropped). Empty in records before version 2."""

    def log_lines(self) -> list[tuple[int, str]]:
        """``(turn, line)`` for each line of the log; turn -1 throughout for old records."""
        lines = self.log.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        turns = self.log_turns if len(self.log_turns) >= len(lines) else [-1] * len(lines)
        return list(zip(turns, lines, strict=False))


@dataclass
class MatchRecord:
    game: str
    options: dict[str, Any]
    seed: int
    backend: str
    limits: dict[str, Any]
    players: list[PlayerRecord]
    moves: list[MoveRecord] = field(default_factory=list)
    result: Result | None = None
    started_at: str = ""
    duration: float = 0.0
    version: int = RECORD_VERSION

    @property
    def forfeit(self) -> games.Forfeit | None:
        return None if self.result is None else self.result.forfeit

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version, "game": self.game, "options": self.options,
            "seed": self.seed, "backend": self.backend, "limits": self.limits,
            "started_at": self.started_at, "duration": round(self.duration, 6),
            "players": [asdict(p) for p in self.players],
            "moves": [{"seat": m.seat, "move": m.move, "time": round(m.time, 6)}
                      for m in self.moves],
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchRecord:
        return cls(
            game=data["game"], options=dict(data.get("options", {})), seed=data["seed"],
            backend=data.get("backend", ""), limits=dict(data.get("limits", {})),
            players=[_player(p) for p in data.get("players", [])],
            moves=[MoveRecord(m["seat"], m["move"], m.get("time", 0.0))
                   for m in data.get("moves", [])],
            result=None if data.get("result") is None else Result.from_json(data["result"]),
            started_at=data.get("started_at", ""), duration=data.get("duration", 0.0),
            version=data.get("version", RECORD_VERSION))

    def to_bytes(self) -> bytes:
        """The stored form (the league's replays): compact JSON, zlib-compressed."""
        data = self.to_json()
        moves, result = data.pop("moves"), data.pop("result")
        return stored_form(data, _compact(moves), _compact(result))

    @classmethod
    def from_bytes(cls, data: bytes) -> MatchRecord:
        """Raises ``ValueError`` (``zlib.error`` and JSON errors included) on bad data."""
        try:
            return cls.from_json(json.loads(zlib.decompress(data)))
        except (KeyError, TypeError, zlib.error) as error:
            raise ValueError(f"not a match record ({error!r})") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        return cls.from_json(json.loads(Path(path).read_text()))

    def frames(self) -> Iterator[State]:
        """Every position of the match through the engine: the start, then after each move."""
        state = games.make_game(self.game, self.options).new_state(self.seed)
        yield state.copy()
        for move in self.moves:
            state.apply(move.move)
            yield state.copy()

    def replay(self) -> State:
        """The final state, re-derived by the engine (a forfeit re-applied at the end)."""
        state = games.make_game(self.game, self.options).replay(
            self.seed, [m.move for m in self.moves])
        forfeit = self.forfeit
        if forfeit is not None and not state.is_over():
            state.forfeit(forfeit.player, forfeit.kind, forfeit.detail)
        return state


def _player(data: dict[str, Any]) -> PlayerRecord:
    """A player from any record version; fields a later version added keep their defaults
    and fields this code does not know are left out, so a newer record still opens."""
    known = set(PlayerRecord.__dataclass_fields__)
    return PlayerRecord(**{"source": "", **{k: v for k, v in data.items() if k in known}})
