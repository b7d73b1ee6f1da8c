"""Frames for the replay viewer, re-derived by the engine from ``(game, options, seed, moves)``.

A frame is the JSON the viewer draws for one step: step 0 is the start, step ``i`` the
position after the ``i``-th move. The browser never applies a rule; everything it shows comes
from the engine's views here. Frames are served in ranges, so a 20,000-move game shows its
first frame at once: a ``FrameSource`` derives lazily, keeps a copy of the state every
``CHECKPOINT_EVERY`` steps, and serves any range from the nearest checkpoint before it.

A record whose moves no longer replay under the engine (a rule changed, a record was edited)
is reported as ``Broken``: frames stop at the last step that can be derived, and a record
whose moves all replay but end differently from the recorded result is broken at its end.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
import viewer
from games import GameError, IllegalMoveError, Result, State
from replay.record import MatchRecord, MoveRecord

SPECTATOR = "spectator"
CHUNK = 256
"""Frames per range the viewer asks for (2048's ~400-byte frames: ~100 KB a range)."""
CHECKPOINT_EVERY = 128
"""A state copy every this many steps: any frame is at most this many moves from one."""
MAX_RANGE = 2048
"""The most frames one call returns, so one request cannot make the server derive a whole
long game's views at once."""
_DROPPED = ("legal_moves", "players")
"""View keys the viewer never draws: legal-move lists (thousands of codes in Blokus Duo) and
the spectator's copies of each player's observation (served as views of their own)."""

View = str | int
"""``"spectator"`` or a seat number (that player's own view, from ``observation``)."""

FORMAT = 1
"""The form of a frame and of a range's answer: bump it with a change the code digest of
``derivation`` would not see (one made outside ``games/``, ``replay/`` and the viewer)."""


@functools.cache
def derivation() -> str:
    """What a record's frames (and its self-contained file) are derived by: ``FORMAT`` and a
    digest of the engine's, this package's and the viewer's files. Names of kept answers
    (the league's ETags and cache keys) include it, so a deploy that may change a frame, a
    rule or an inlined viewer module names every answer anew: nobody has to remember a
    bump. Read once per process (~60 small files)."""
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    roots = (Path(games.__file__).parent, Path(__file__).parent, viewer.STATIC)
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in {".py", ".js", ".css"} and path.is_file():
                digest.update(f"{root.name}/{path.relative_to(root).as_posix()}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Broken:
    """Why the frames stop short of the record: the first step the engine cannot derive."""

    step: int
    move: str | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "move": self.move, "reason": self.reason}

    def message(self) -> str:
        if self.move is None:
            return f"step {self.step}: {self.reason}"
        return f"move {self.step} ({self.move!r}) no longer replays: {self.reason}"


def parse_view(text: str | None, players: int) -> View:
    """The view a caller asked for; ``ValueError`` naming the choices otherwise."""
    if text in (None, "", SPECTATOR):
        return SPECTATOR
    if text.isdigit() and int(text) < players:
        return int(text)
    seats = ", ".join(str(p) for p in range(players))
    raise ValueError(f"no view {text!r}: the views are spectator and the seats {seats}")


class FrameSource:
    """Derives a match's frames on demand; thread-safe, meant to be cached per match."""

    def __init__(self, game_id: str, options: dict[str, Any], seed: int,
                 moves: Sequence[MoveRecord], result: Result | None = None) -> None:
        self.game_id = game_id
        self.seed = seed
        self.moves: list[MoveRecord] = list(moves)
        self.result = result
        self.broken: Broken | None = None
        self._lock = threading.Lock()
        self._checkpoints: dict[int, State] = {}
        self._derived = 0
        """Steps up to here are known to derive."""
        self._tip: tuple[int, State] | None = None
        """The furthest state reached, kept so a live match extends without a replay."""
        try:
            self.game: games.Game | None = games.make_game(game_id, options)
            start = self.game.new_state(seed)
        except GameError as error:
            self.game = None
            self.broken = Broken(0, None, f"the engine cannot start this match: {error}")
            return
        self._checkpoints[0] = start.copy()
        self._tip = (0, start)

    @classmethod
    def from_record(cls, record: MatchRecord) -> FrameSource:
        return cls(record.game, record.options, record.seed, record.moves, record.result)

    # -- figures ------------------------------------------------------------------------
    @property
    def total(self) -> int:
        """Frames the record claims: the start plus one per move (fewer can derive)."""
        return len(self.moves) + 1

    @property
    def players(self) -> int:
        return 0 if self.game is None else self.game.num_players

    @property
    def views(self) -> list[View]:
        """The spectator's, and each player's own where the game hides information."""
        if self.game is None or not self.game.hidden_information:
            return [SPECTATOR]
        return [SPECTATOR, *range(self.game.num_players)]

    def assets(self) -> dict[str, Any]:
        """Fixed drawing data from the engine (Blokus Duo's piece shapes, say)."""
        return {} if self.game is None else self.game.viewer_assets()

    # -- live matches -------------------------------------------------------------------
    def extend(self, moves: Iterable[MoveRecord], first: int | None = None) -> None:
        """Moves played since (a live match); what was derived so far stays. With ``first``
        (the number of the first of ``moves``), moves already held are skipped, so two
        readers extending at once add each move once."""
        with self._lock:
            new = list(moves)
            if first is not None:
                if first > len(self.moves):
                    return  # a gap: wait for the moves in between
                new = new[len(self.moves) - first:]
            self.moves.extend(new)

    # -- frames -------------------------------------------------------------------------
    def verify(self) -> Broken | None:
        """Derive the whole record once; ``None`` when every step replays as recorded."""
        with self._lock:
            self._state_at(len(self.moves))
        return self.broken

    def state_at(self, step: int) -> State | None:
        """A copy of the engine's state at ``step`` (a board to check a move on), or None
        past the record or a broken step."""
        with self._lock:
            if self.game is None or not 0 <= step < self.total:
                return None
            return self._state_at(step)

    def frames(self, start: int, stop: int, view: View = SPECTATOR) -> list[dict[str, Any]]:
        """Frames ``start`` to ``stop - 1`` (clamped; at most ``MAX_RANGE``), ending early at
        a broken step."""
        with self._lock:
            stop = min(stop, self.total, start + MAX_RANGE)
            if self.game is None or start >= stop or start < 0:
                return []
            before = self._state_at(start - 1) if start > 0 else None
            state = self._state_at(start)
            if state is None or (start > 0 and before is None):
                return []
            shaper = _Shaper(self.game, view, before)
            out = [shaper.frame(start, state, self._move(start))]
            for step in range(start + 1, stop):
                if not self._advance(state, step):
                    break
                out.append(shaper.frame(step, state, self._move(step)))
            return out

    # -- derivation (callers hold the lock) ---------------------------------------------
    def _move(self, step: int) -> MoveRecord | None:
        return self.moves[step - 1] if step > 0 else None

    def _state_at(self, step: int) -> State | None:
        """A copy of the state at ``step``, or ``None`` past a broken step."""
        if self.broken is not None and step >= self.broken.step and \
                not (step == self.broken.step and self.broken.move is None):
            return None
        base = max(s for s in self._checkpoints if s <= step)
        if self._tip is not None and base <= self._tip[0] <= step:
            base, state = self._tip  # moving the tip on: no replay, no copy
        else:
            state = self._checkpoints[base].copy()
        for s in range(base + 1, step + 1):
            if not self._advance(state, s):
                self._tip = (s - 1, state)
                return None
        self._tip = (step, state)
        return state.copy()

    def _advance(self, state: State, step: int) -> bool:
        """Apply move ``step`` to ``state`` (at ``step - 1``); record what is learnt."""
        if step > len(self.moves):
            return False
        move = self.moves[step - 1]
        try:
            state.apply(move.move)
        except IllegalMoveError as error:
            self.broken = Broken(step, move.move, error.reason)
            return False
        if step == len(self.moves):
            self._check_end(state, step)
        if step > self._derived:
            self._derived = step
            if step % CHECKPOINT_EVERY == 0:
                self._checkpoints[step] = state.copy()
        return True

    def _check_end(self, state: State, step: int) -> None:
        """A finished record's last frame: its forfeit re-applied, its result compared."""
        recorded = self.result
        if recorded is None:
            return  # a live match: nothing to compare yet
        if recorded.forfeit is not None and not state.is_over():
            f = recorded.forfeit
            state.forfeit(f.player, f.kind, f.detail)
        derived = state.result
        if derived is None or not _same_end(derived, recorded):
            now = "no end yet" if derived is None else derived.summary()
            self.broken = Broken(step, None, f"the moves replay but end differently from the "
                                             f"record: recorded {recorded.summary()!r}, the "
                                             f"engine now gives {now!r}")


def _same_end(a: Result, b: Result) -> bool:
    return a.reason == b.reason and list(a.scores) == list(b.scores) and \
        a.outcomes == b.outcomes


class _Shaper:
    """Turns consecutive states into frames for one view; remembers what the previous frame
    held, so each frame can say what changed (cells of a board, a player's new events)."""

    def __init__(self, game: games.Game, view: View, before: State | None) -> None:
        self.game = game
        self.view = view
        self.hidden = game.hidden_information
        self.board: list[str] | None = None
        self.seen: list[int] = [0] * game.num_players
        if before is not None:
            self.board = _board(self._view(before))
            if self.hidden:
                self.seen = [len(before.observation(p).get("events", ()))
                             for p in range(game.num_players)]

    def _view(self, state: State) -> dict[str, Any]:
        data = state.spectator() if isinstance(self.view, str) else state.observation(self.view)
        for key in _DROPPED:
            data.pop(key, None)
        return data

    def frame(self, step: int, state: State, move: MoveRecord | None) -> dict[str, Any]:
        view = self._view(state)
        frame: dict[str, Any] = {
            "step": step, "to_move": state.to_move, "over": state.is_over(),
            "move": None if move is None else {"seat": move.seat, "move": move.move,
                                               "time": round(move.time, 4)},
            "view": view}
        board = _board(view)
        if board is not None:
            frame["changed"] = _changed(self.board, board) if self.board is not None else []
            self.board = board
        if self.hidden:
            frame["events"] = self._new_events(state, view)
        return frame

    def _new_events(self, state: State, view: dict[str, Any]) -> list[dict[str, Any]]:
        """What happened to each player in this step: the events its observation gained.

        A player's view carries only its own; the spectator's carries everyone's, by seat.
        Observations repeat every event so far, so only the new ones go in the frame.
        """
        new: list[dict[str, Any]] = []
        for p in range(self.game.num_players):
            events = view.get("events", []) if self.view == p else \
                state.observation(p).get("events", []) if self.view == SPECTATOR else None
            if events is None:
                continue
            new += [{"seat": p, **e} for e in events[self.seen[p]:]]
            self.seen[p] = len(events)
        if self.view != SPECTATOR:
            view.pop("events", None)
        return new


def _board(view: dict[str, Any]) -> list[str] | None:
    board = view.get("board")
    if isinstance(board, list) and board and all(isinstance(row, str) for row in board):
        return board
    return None


def _changed(before: list[str], after: list[str]) -> list[list[int]]:
    """Cells whose character differs: the piece just placed, the stone and what it blocked."""
    return [[r, c] for r, (old, new) in enumerate(zip(before, after, strict=False))
            if old != new for c, (a, b) in enumerate(zip(old, new, strict=False)) if a != b]
