"""What the replay viewer is given besides frames: the header of a match.

One shape for the league's match pages and the local runner's self-contained ``--html``
files: the game, its players, every move (seat, move, seconds), the result with its reason,
the views there are, the engine's drawing assets, and the logs the reader may see, each line
with the turn it was written in. The league adds its status and addresses to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import Result
from replay.frames import CHUNK, FrameSource
from replay.record import MatchRecord

LogLines = Sequence[tuple[int, str]]
MOVES_IN_HEADER = 2000
"""A longer game's moves are not listed in the header: each frame carries its own move, and
the move list fills in from the frames as they arrive (a 20,000-move header would be the
biggest thing the page loads before its first frame)."""


def viewer_header(source: FrameSource, *, names: Mapping[int, str], result: Result | None,
                  logs: Mapping[int, LogLines], log_turns: bool,
                  owners: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The header; ``logs`` holds only the seats whose log the reader may see. ``moves`` is
    ``None`` past ``MOVES_IN_HEADER`` moves (the frames carry them)."""
    owners = owners or {}
    return {
        "game": source.game_id,
        "title": source.game.title if source.game is not None else source.game_id,
        "options": source.game.options if source.game is not None else {},
        "seed": source.seed,
        "players": [{"seat": seat, "name": names[seat], "owner": owners.get(seat, "")}
                    for seat in sorted(names)],
        "views": source.views, "assets": source.assets(),
        "moves": [[m.seat, m.move, round(m.time, 4)] for m in source.moves]
        if len(source.moves) <= MOVES_IN_HEADER else None,
        "total": source.total, "chunk": CHUNK,
        "result": None if result is None else {
            **result.to_json(), "summary": result_summary(result, names, source.game)},
        "broken": broken_json(source),
        "logs": {str(seat): [[turn, line] for turn, line in lines]
                 for seat, lines in logs.items()},
        "log_turns": log_turns,
    }


def result_summary(result: Result, names: Mapping[int, str], game: Any) -> str:
    """The result as the viewer and the match page say it: with the players' names, and
    what a score counts in ``game`` (a ``games.Game``, or ``None`` for an unknown one)."""
    return result.summary(names, unit=getattr(game, "score_unit", ""))


def record_header(record: MatchRecord, source: FrameSource,
                  log_seats: Sequence[int] = ()) -> dict[str, Any]:
    """The header of a saved record, with the logs of ``log_seats``."""
    players = {p.seat: p for p in record.players}
    return viewer_header(source, names={s: p.name for s, p in players.items()},
                         result=record.result,
                         logs={s: players[s].log_lines() for s in log_seats if s in players},
                         log_turns=record.version >= 2)


def broken_json(source: FrameSource) -> dict[str, Any] | None:
    broken = source.broken
    return None if broken is None else {**broken.to_json(), "message": broken.message()}
