"""Blokus Duo rules on bitboards (game id ``blokus_duo``); see ``docs/rules/blokus_duo.md``.

Legal moves are generated for all anchors of a shape at once: with ``free`` the squares a
player may cover (empty, no own edge contact) and ``corners`` the free squares touching its
pieces corner to corner, a shape with cell offsets o fits at anchor a iff every a+o is in
``free`` and some a+o is in ``corners`` — an AND and an OR of shifted copies of two ints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.blokus_duo.moves import PASS_CODE, BlokusMove
from games.blokus_duo.pieces import (
    BOARD,
    HEX,
    LETTERS,
    PIECE_SHAPE_INDEXES,
    PIECE_SHAPES,
    PIECE_SIZES,
    SHAPES,
    SIZE,
    START_SQUARES,
    TOTAL_SQUARES,
    corner_neighbours,
    edge_neighbours,
    square_name,
)
from games.core import Game, State
from games.errors import GameError, IllegalMoveError
from games.registry import register
from games.result import Result, two_player_outcomes

START_BITS = tuple(1 << (y * SIZE + x) for x, y in START_SQUARES)
ALL_PIECES = (1 << len(LETTERS)) - 1
# The 25 distinct cell offsets any shape uses; the hot loop shifts each once per call and
# shapes refer to them by position in this tuple.
_OFFSETS = tuple(sorted({off for shape in SHAPES for off in shape.offsets}))
# Per piece, (anchors, offset positions, codes) of each of its shapes, as plain tuples.
_GENERATION_TABLE = tuple(
    tuple((SHAPES[s].anchors, tuple(_OFFSETS.index(o) for o in SHAPES[s].offsets),
           SHAPES[s].codes) for s in indexes)
    for indexes in PIECE_SHAPE_INDEXES)
MONOMINO = 0


@register
class BlokusDuo(Game):
    id = "blokus_duo"
    title = "Blokus Duo"
    score_unit = "squares"
    num_players = 2

    def new_state(self, seed: int = 0) -> BlokusDuoState:
        return BlokusDuoState(self, seed)

    def state_from_observation(self, observation: Mapping[str, Any]) -> BlokusDuoState:
        return BlokusDuoState.from_view(self, observation)

    def viewer_assets(self) -> dict[str, Any]:
        # The shapes as the rule sheet draws them, so a viewer can show the pieces left.
        return {"pieces": dict(PIECE_SHAPES),
                "start_squares": [{"x": x, "y": y} for x, y in START_SQUARES]}


class BlokusDuoState(State):
    game: BlokusDuo

    def __init__(self, game: BlokusDuo, seed: int = 0) -> None:
        super().__init__(game, seed)
        self.history: list[str] = []
        # Moves played, passes included; not len(history), since a state rebuilt from an
        # observation knows how many moves were played but not which.
        self.turn = 0
        self.own = [0, 0]            # squares each player covers
        self.edges = [0, 0]          # squares edge-adjacent to each player's pieces
        self.corners = [0, 0]        # squares corner-adjacent to each player's pieces
        self.left = [ALL_PIECES, ALL_PIECES]   # bit i set: piece i not placed yet
        self.passed = [False, False]
        self.last_piece: list[int | None] = [None, None]
        self._player = 0

    # -- turn -----------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else self._player

    def _areas(self, p: int) -> tuple[int, int]:
        """(squares ``p`` may cover, of which those that satisfy the corner rule)."""
        free = BOARD & ~(self.own[0] | self.own[1] | self.edges[p])
        touch = START_BITS[p] if self.left[p] == ALL_PIECES else self.corners[p]
        return free, touch & free

    # -- moves ----------------------------------------------------------------------------
    def legal_moves(self) -> list[str]:
        """Canonical codes of every legal placement, then ``X000`` (a pass is always legal)."""
        if self._result is not None:
            return []
        moves = self.legal_placements()
        moves.append(PASS_CODE)
        return moves

    def legal_placements(self) -> list[str]:
        """Canonical codes of every legal placement for the player to move (no pass)."""
        p = self._player
        free, touch = self._areas(p)
        out: list[str] = []
        if not touch or self.passed[p]:
            return out
        shifted_free = [free >> k for k in _OFFSETS]
        shifted_touch = [touch >> k for k in _OFFSETS]
        left = self.left[p]
        append = out.append
        for piece, shapes in enumerate(_GENERATION_TABLE):
            if not left >> piece & 1:
                continue
            for fit, offsets, codes in shapes:
                hit = 0
                for off in offsets:
                    fit &= shifted_free[off]
                    hit |= shifted_touch[off]
                fit &= hit
                while fit:  # highest bit first: one op fewer per move than fit & -fit
                    i = fit.bit_length() - 1
                    append(codes[i])
                    fit ^= 1 << i
        return out

    def has_placement(self) -> bool:
        """Whether the player to move has any legal placement (cheaper than listing them)."""
        p = self._player
        free, touch = self._areas(p)
        if not touch:
            return False
        for piece, shape_indexes in enumerate(PIECE_SHAPE_INDEXES):
            if self.left[p] >> piece & 1:
                for s in shape_indexes:
                    shape = SHAPES[s]
                    fit, hit = shape.anchors, 0
                    for off in shape.offsets:
                        fit &= free >> off
                        hit |= touch >> off
                    if fit & hit:
                        return True
        return False

    def _apply(self, move: str) -> None:
        m = BlokusMove.parse(move)
        p = self._player
        if m.is_pass:
            self._play_pass(p)
            return
        mask = self._check(move, m, p)
        self._place(p, m.piece, mask)  # type: ignore[arg-type]
        self.history.append(m.canonical())
        self.turn += 1
        self._advance(p)

    def _check(self, text: str, m: BlokusMove, p: int) -> int:
        """The placement's square mask, or ``IllegalMoveError`` with the first rule it breaks."""
        assert m.piece is not None
        letter = LETTERS[m.piece]
        if not self.left[p] >> m.piece & 1:
            raise IllegalMoveError(text, f"piece {letter} has already been placed")
        shape = m.shape
        if m.x + shape.width > SIZE or m.y + shape.height > SIZE:
            raise IllegalMoveError(
                text, f"piece {letter} in orientation {m.orientation} at "
                      f"{square_name(m.x, m.y)} runs off the board")
        mask = shape.mask << m.anchor
        occupied = mask & (self.own[0] | self.own[1])
        if occupied:
            raise IllegalMoveError(text, f"square {_first_square(occupied)} is already covered")
        touching = mask & self.edges[p]
        if touching:
            raise IllegalMoveError(
                text, f"square {_first_square(touching)} would share an edge with your own piece")
        if self.left[p] == ALL_PIECES:
            if not mask & START_BITS[p]:
                sx, sy = START_SQUARES[p]
                raise IllegalMoveError(
                    text, f"your first piece must cover your start square {square_name(sx, sy)}")
        elif not mask & self.corners[p]:
            raise IllegalMoveError(text, "the piece touches none of your pieces corner to corner")
        return mask

    def _place(self, p: int, piece: int, mask: int) -> None:
        self.own[p] |= mask
        self.edges[p] |= edge_neighbours(mask)
        self.corners[p] |= corner_neighbours(mask)
        self.left[p] &= ~(1 << piece)
        self.last_piece[p] = piece

    def _play_pass(self, p: int) -> None:
        self.passed[p] = True
        self.history.append(PASS_CODE)
        self.turn += 1
        self._advance(p)

    def _advance(self, p: int) -> None:
        if self.passed[0] and self.passed[1]:
            self._finish()
        elif not self.passed[1 - p]:
            self._player = 1 - p

    def _finish(self) -> None:
        s0, s1 = self.scores()
        winner = None if s0 == s1 else (0 if s0 > s1 else 1)
        detail = "both players passed; " + (
            "equal squares, a draw" if winner is None else f"player {winner} placed more squares")
        self._result = Result(reason="both-passed", scores=(s0, s1),
                              outcomes=two_player_outcomes(winner), detail=detail,
                              extra=self.extra())

    # -- figures --------------------------------------------------------------------------
    def squares_placed(self, p: int) -> int:
        return self.own[p].bit_count()

    def scores(self) -> tuple[float, ...]:
        return (self.squares_placed(0), self.squares_placed(1))

    def bonus(self, p: int) -> int:
        """The official bonus: 15 for placing all 21 pieces, 20 if the monomino came last."""
        if self.left[p]:
            return 0
        return 20 if self.last_piece[p] == MONOMINO else 15

    def extra(self) -> dict[str, Any]:
        return {
            "squares": [self.squares_placed(0), self.squares_placed(1)],
            "bonus": [self.bonus(0), self.bonus(1)],
            "squares_left": [TOTAL_SQUARES - self.squares_placed(p) for p in (0, 1)],
            "pieces_left": [self.left[p].bit_count() for p in (0, 1)],
        }

    # -- views ----------------------------------------------------------------------------
    def board_rows(self) -> list[str]:
        rows = []
        for y in range(SIZE):
            line = []
            for x in range(SIZE):
                bit = 1 << (y * SIZE + x)
                line.append("0" if self.own[0] & bit else "1" if self.own[1] & bit else ".")
            rows.append("".join(line))
        return rows

    def pieces_left(self, p: int) -> list[str]:
        return [c for i, c in enumerate(LETTERS) if self.left[p] >> i & 1]

    def _view(self) -> dict[str, Any]:
        return {
            "game": "blokus_duo", "board": self.board_rows(), "turn": self.turn,
            "to_move": self.to_move,
            "pieces_left": [self.pieces_left(0), self.pieces_left(1)],
            "last_piece": [None if lp is None else LETTERS[lp] for lp in self.last_piece],
            "passed": list(self.passed), "squares": [self.squares_placed(p) for p in (0, 1)],
        }

    def observation(self, player: int) -> dict[str, Any]:
        view = self._view()
        view["player"] = player
        view["legal_moves"] = self.legal_moves() if player == self.to_move else []
        return view

    def spectator(self) -> dict[str, Any]:
        view = self._view()
        view["legal_moves"] = self.legal_moves()
        view["result"] = None if self._result is None else self._result.to_json()
        return view

    def render(self, player: int | None = None) -> str:
        marks = {"0": "O", "1": "X", ".": "."}
        start = {(x, y): "+" for x, y in START_SQUARES}
        lines = ["   " + " ".join(HEX[1:])]
        for y, row in enumerate(self.board_rows()):
            cells = [start.get((x, y), ".") if ch == "." else marks[ch] for x, ch in enumerate(row)]
            lines.append(f" {HEX[y + 1]} " + " ".join(cells))
        for p in (0, 1):
            flag = " (passed)" if self.passed[p] else ""
            lines.append(f"player {p} {marks[str(p)]}: {self.squares_placed(p)} squares, "
                         f"left {''.join(self.pieces_left(p)) or '-'}{flag}")
        lines.append(self._last_line(f"turn {self.turn}, player {self._player} to move"))
        return "\n".join(lines)

    # -- copying and rebuilding -------------------------------------------------------------
    def copy(self) -> BlokusDuoState:
        twin = BlokusDuoState.__new__(BlokusDuoState)
        twin.game = self.game
        twin.seed = self.seed
        twin.rng = self.rng.copy()
        twin.history = self.history.copy()
        twin.turn = self.turn
        twin._result = self._result
        twin.own = self.own.copy()
        twin.edges = self.edges.copy()
        twin.corners = self.corners.copy()
        twin.left = self.left.copy()
        twin.passed = self.passed.copy()
        twin.last_piece = self.last_piece.copy()
        twin._player = self._player
        return twin

    @classmethod
    def from_view(cls, game: BlokusDuo, view: Mapping[str, Any]) -> BlokusDuoState:
        """Rebuild a state from an observation or spectator view (for bots that search)."""
        state = cls(game)
        rows = view["board"]
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise GameError("board must be 14 rows of 14 squares")
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch in "01":
                    state.own[int(ch)] |= 1 << (y * SIZE + x)
        for p in (0, 1):
            state.edges[p] = edge_neighbours(state.own[p])
            state.corners[p] = corner_neighbours(state.own[p])
            state.left[p] = sum(1 << LETTERS.index(c) for c in view["pieces_left"][p])
            placed = sum(PIECE_SIZES[i] for i in range(len(LETTERS)) if not state.left[p] >> i & 1)
            if placed != state.own[p].bit_count():
                raise GameError(f"player {p}: board squares do not match the pieces left")
            last = view.get("last_piece", [None, None])[p]
            state.last_piece[p] = None if last is None else LETTERS.index(last)
        state.passed = [bool(v) for v in view["passed"]]
        state._player = view["to_move"] if view.get("to_move") is not None else 0
        state.turn = int(view.get("turn", 0))
        if all(state.passed):
            state._finish()
        return state


def _first_square(mask: int) -> str:
    i = (mask & -mask).bit_length() - 1
    return square_name(i % SIZE, i // SIZE)
