"""2048 (game id ``g2048``): slide tiles on a grid, equal tiles merge; one player, with chance.

See ``docs/rules/g2048.md``. The board is a packed int (``games.g2048.board``); this module holds
the move notation, the options, the state machine (move, spawn, end) and the views.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any

from games.core import Game
from games.errors import GameError, IllegalMoveError, MalformedMoveError
from games.g2048.board import Geometry, geometry
from games.g2048.playout import OVERFLOW
from games.g2048.playout import playout as fast_playout
from games.g2048.playout import worth as playout_worth
from games.options import FloatOption, IntOption, OptionSchema
from games.registry import register
from games.rng import Rng
from games.solo import SoloState, observed_count


class Direction(IntEnum):
    """A move: the side every tile slides toward. Written ``L``, ``R``, ``U`` or ``D``."""

    L = 0
    R = 1
    U = 2
    D = 3

    @classmethod
    def parse(cls, text: str) -> Direction:
        """Read a move (case-insensitive, surrounding blanks ignored)."""
        found = _PARSE.get(text.strip().upper()) if isinstance(text, str) else None
        if found is None:
            raise MalformedMoveError(str(text), "expected one of L, R, U, D "
                                                "(slide left, right, up or down)")
        return found

    @property
    def word(self) -> str:
        return ("left", "right", "up", "down")[self]

    def __str__(self) -> str:
        return self.name


_PARSE: dict[str, Direction] = {}
for _d in Direction:
    _PARSE[_d.name] = _PARSE[_d.name.lower()] = _d
# The hot path indexes with plain ints: enum attribute access costs ~0.3 us a move.
_PARSE_INDEX: dict[str, int] = {text: int(d) for text, d in _PARSE.items()}
_NAMES = tuple(d.name for d in Direction)
# legal-direction bit mask -> the legal moves' canonical texts
_MOVE_LISTS = tuple(tuple(d.name for d in Direction if mask >> d & 1) for mask in range(16))


def _nothing_moves(move: str, direction: int) -> IllegalMoveError:
    word = Direction(direction).word
    return IllegalMoveError(move, f"sliding {word} changes nothing: "
                                  "no tile can move or merge that way")


def _parse_slow(move: object) -> Direction:
    if not isinstance(move, str):
        raise IllegalMoveError(repr(move), "a move must be text")
    return Direction.parse(move)


@register
class G2048(Game):
    id = "g2048"
    title = "2048"
    num_players = 1
    chance = True
    options_schema = OptionSchema(
        IntOption("rows", 4, 2, 8, "rows of the grid"),
        IntOption("cols", 4, 2, 8, "columns of the grid"),
        FloatOption("p_two", 0.75, 0.0, 1.0, "probability that a new tile is a 2 (else a 4)"),
        IntOption("max_turns", 100_000, 1, 1_000_000, "moves after which the run stops"),
    )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.rows: int = self.options["rows"]
        self.cols: int = self.options["cols"]
        self.geometry: Geometry = geometry(self.rows, self.cols)
        # A spawn is a 2 when the low 32 bits of one 64-bit draw fall below this.
        self.two_below: int = round(self.options["p_two"] * (1 << 32))
        self.max_turns: int = self.options["max_turns"]

    def new_state(self, seed: int = 0) -> G2048State:
        state = G2048State(self, seed)
        state.spawn()
        state.spawn()
        return state

    def state_from_observation(self, observation: Mapping[str, Any],
                               seed: int = 0) -> G2048State:
        """Rebuild a state from an observation; its future spawns come from ``Rng(seed)``.

        The move history is not part of an observation, so the rebuilt state's is empty.
        """
        grid = observation.get("grid")
        if (not isinstance(grid, list) or len(grid) != self.rows
                or any(not isinstance(r, list) or len(r) != self.cols for r in grid)):
            raise GameError(f"'grid' must be {self.rows} rows of {self.cols} numbers")
        exponents = [[_exponent_of(v) for v in row] for row in grid]
        turn = observed_count(observation, "turn")
        self._check_room(exponents, turn)
        state = G2048State(self, seed)
        state.board = self.geometry.from_grid(exponents)
        state.score = observed_count(observation, "score")
        state.turn = turn
        state._check_end()
        return state

    def _check_room(self, exponents: list[list[int]], turn: int) -> None:
        """Refuse a grid whose tiles could grow past the largest tile the board holds.

        The packed board stores exponents up to 31 (a nibble plus the high plane). No tile can
        outgrow the sum of all tiles, and that sum grows by at most 4 a move (the spawn), so
        a sum that stays below 2**32 until ``max_turns`` keeps every tile storable. A game
        played from the start never comes near (4 * 10**6 at most); only a made-up
        observation does, and storing its merge would corrupt the board.
        """
        total = sum(1 << e for row in exponents for e in row if e)
        moves_left = max(0, self.max_turns - turn)
        if total + 4 * moves_left >= 1 << 32:
            raise GameError(f"tiles summing to {total} could merge into a 2**32 tile within "
                            f"the {moves_left} moves left; a tile holds at most 2**31")


def _exponent_of(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise GameError(f"a cell must be 0 or a power of two >= 2, got {value!r}")
    if value == 0:
        return 0
    e = value.bit_length() - 1
    if value != 1 << e or not 1 <= e <= 31:
        raise GameError(f"a cell must be 0 or a power of two from 2 to 2**31, got {value!r}")
    return e


class G2048State(SoloState):
    """A 2048 position. ``board`` is the packed int of ``games.g2048.board``.

    Search helpers: ``slide`` returns the position after a move but before its spawn (an
    *afterstate*); ``empty_cells`` and ``place_tile`` (or ``spawn``) finish it, so an
    expectimax can enumerate every chance outcome with the engine itself.
    """

    game: G2048

    def __init__(self, game: G2048, seed: int) -> None:
        super().__init__(game, seed)
        self.geometry = game.geometry
        self.board = 0
        self.score = 0
        self.turn = 0
        self.pending_spawn = False  # True on an afterstate from ``slide``
        self._legal = -1  # cached legal-direction mask, -1 = not computed

    # -- moves ----------------------------------------------------------------------------
    def legal_mask(self) -> int:
        """Bit ``Direction.X`` set when that direction is legal."""
        if self._result is not None or self.pending_spawn:
            return 0
        if self._legal < 0:
            self._legal = self.geometry.legal(self.board)
        return self._legal

    def legal_moves(self) -> list[str]:
        mask = self._legal
        if mask < 0 or self._result is not None or self.pending_spawn:
            mask = self.legal_mask()
        return list(_MOVE_LISTS[mask])

    def apply(self, move: str) -> None:
        # State.apply's contract with the common path inlined: this is the hot loop of every
        # random playout, and each Python call saved is a few percent of a move.
        if self._result is not None:
            raise IllegalMoveError(str(move), "the game is over")
        try:
            direction = _PARSE_INDEX[move]
        except (KeyError, TypeError):
            direction = _parse_slow(move)
        if self.pending_spawn:
            raise IllegalMoveError(move, "a tile must spawn first (spawn or place_tile)")
        board = self.board
        geom = self.geometry
        new, gain = geom.slides[direction](board)
        if new == board:
            raise _nothing_moves(move, direction)
        self.score += gain
        self.turn = turn = self.turn + 1
        if self._history_shared:
            self._own_history()
        self._history.append(_NAMES[direction])
        game = self.game
        self.board, empties = geom.spawn(new, self.rng.next64(), game.two_below)
        self._legal = -1
        # A board with an empty cell always has a legal move, so only a full one is tested.
        if empties == 1 or turn >= game.max_turns:
            self._check_end()

    def playout(self, rng: Rng | int, max_moves: int | None = None) -> int:
        """``State.playout``: uniformly random legal moves, spawns as ``apply`` draws them.

        A 4x4 board runs the dedicated loop of ``games.g2048.playout``; other sizes, and the
        rare move that would make a 65536 tile, take the contract's loop.
        """
        chooser = rng if isinstance(rng, Rng) else Rng(rng)
        budget = self.game.max_turns - self.turn
        if max_moves is not None:
            budget = min(budget, max_moves)
        if self._result is not None or self.pending_spawn or budget <= 0:
            return 0
        geom = self.geometry
        if geom.rows != 4 or geom.cols != 4 or self.board >> geom.high_shift:
            return super().playout(chooser, budget)
        if self._history_shared:
            self._own_history()
        old = self.board & geom.low_mask
        board, self.rng.state, played, fours, why = fast_playout(
            old, self.rng.state, chooser, budget, self.game.two_below, self._history.append)
        self.board = geom.from_rows(board)
        self.score += playout_worth(board) - playout_worth(old) - 4 * fours
        self.turn += played
        self._legal = -1
        self._check_end()
        if why == OVERFLOW and self._result is None:
            played += super().playout(chooser, budget - played)
        return played

    def _apply(self, move: str) -> None:
        self.apply(move)

    def _slide_in_place(self, direction: Direction, text: str) -> None:
        if self.pending_spawn:
            raise IllegalMoveError(text, "a tile must spawn first (spawn or place_tile)")
        board = self.board
        new, gain = self.geometry.slides[direction](board)
        if new == board:
            raise _nothing_moves(text, direction)
        self.board = new
        self.score += gain
        self.turn += 1
        if self._history_shared:
            self._own_history()
        self._history.append(_NAMES[direction])
        self._legal = -1
        self.pending_spawn = True

    def slide(self, move: str | int) -> tuple[G2048State, int]:
        """The afterstate of ``move`` (slid, scored, no spawn yet) and the score it gained.

        Raises like ``apply`` when the move is illegal; this state is left as it was.
        """
        if self._result is not None:
            raise IllegalMoveError(str(move), "the game is over")
        if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < 4:
            direction = Direction(move)
        else:
            direction = Direction.parse(move)  # type: ignore[arg-type]
        twin = self.copy()
        twin._slide_in_place(direction, str(direction))
        return twin, twin.score - self.score

    # -- chance ---------------------------------------------------------------------------
    def empty_cells(self) -> list[tuple[int, int]]:
        cols = self.game.cols
        return [(i // cols, i % cols) for i in self.geometry.empty_cells(self.board)]

    def spawn(self) -> None:
        """Put a new tile on a random empty cell, as the rules do after every move."""
        if not self.geometry.empty_mask(self.board):
            raise GameError("no empty cell to spawn on")
        board, _ = self.geometry.spawn_with(self.board, self.rng.next64(), self.game.two_below)
        self._finish_spawn(board)

    def place_tile(self, cell: tuple[int, int], value: int) -> None:
        """Put a chosen tile (2 or 4) on an empty cell: a chance outcome picked by a search."""
        if value not in (2, 4):
            raise GameError(f"a spawned tile is 2 or 4, got {value!r}")
        row, col = cell
        if not (0 <= row < self.game.rows and 0 <= col < self.game.cols):
            raise GameError(f"cell {cell} is off the {self.game.rows}x{self.game.cols} grid")
        i = row * self.game.cols + col
        if self.geometry.exponent(self.board, i):
            raise GameError(f"cell {cell} is not empty")
        self._finish_spawn(self.geometry.place(self.board, i, value.bit_length() - 1))

    def _finish_spawn(self, board: int) -> None:
        self.board = board
        self.pending_spawn = False
        self._legal = -1
        self._check_end()

    def _check_end(self) -> None:
        # A board with an empty cell always has a legal move, so only a full one is tested.
        if not self.geometry.empty_mask(self.board) and not self.legal_mask():
            self._end("no-legal-move", "game over: no tile can move or merge")
        elif self.turn >= self.game.max_turns:
            self._end("max-turns", f"stopped after {self.turn} moves (max_turns)")

    # -- figures --------------------------------------------------------------------------
    def max_tile(self) -> int:
        e = self.geometry.max_exponent(self.board)
        return 1 << e if e else 0

    def extra(self) -> dict[str, Any]:
        return {"max_tile": self.max_tile(), "moves": self.turn}

    def grid(self) -> list[list[int]]:
        """Tile values as a list of rows, 0 for empty."""
        return [[1 << e if e else 0 for e in row] for row in self.geometry.to_grid(self.board)]

    # -- views ----------------------------------------------------------------------------
    def observation(self, player: int = 0) -> dict[str, Any]:
        return {"game": "g2048", "rows": self.game.rows, "cols": self.game.cols,
                "grid": self.grid(), "score": self.score, "turn": self.turn,
                "max_tile": self.max_tile(), "to_move": self.to_move,
                "legal_moves": self.legal_moves()}

    def render(self, player: int | None = None) -> str:
        grid = self.grid()
        width = max(4, *(len(str(v)) for row in grid for v in row))
        lines = [" ".join(str(v).rjust(width) if v else ".".rjust(width) for v in row)
                 for row in grid]
        legal = " ".join(self.legal_moves()) or "none (a tile must spawn)"
        lines.append(self._last_line(f"score {self.score}, move {self.turn}, legal: {legal}"))
        return "\n".join(lines)
