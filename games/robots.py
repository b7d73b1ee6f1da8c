"""Robots (game id ``robots``): flee robots that step toward you; make them crash.

The board is three bitboards (Python ints, bit ``row * cols + col``): live robots, scrap and
the player's cell. Robots step all at once by shifting eight groups (the robots above-left of
the player move down-right by ``cols + 1`` bits, and so on); cells reached twice crash into
scrap. See ``docs/rules/robots.md``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import IntEnum
from functools import cache
from typing import Any

from games.core import Game
from games.errors import GameError, IllegalMoveError, MalformedMoveError
from games.options import IntOption, OptionSchema
from games.registry import register
from games.solo import SoloState, observed_count


class Command(IntEnum):
    """A keypad command, the player sitting on 5. Written as its digit."""

    TELEPORT = 0
    DOWN_LEFT = 1
    DOWN = 2
    DOWN_RIGHT = 3
    LEFT = 4
    WAIT = 5
    RIGHT = 6
    UP_LEFT = 7
    UP = 8
    UP_RIGHT = 9

    @classmethod
    def parse(cls, text: str) -> Command:
        stripped = text.strip() if isinstance(text, str) else ""
        if len(stripped) != 1 or stripped not in "0123456789":
            raise MalformedMoveError(str(text), "expected one digit 0-9 as on a keypad "
                                                "(7 8 9 / 4 5 6 / 1 2 3; 5 waits, 0 teleports)")
        return cls(int(stripped))

    @property
    def delta(self) -> tuple[int, int]:
        """(row change, column change) of a step; (0, 0) for wait and teleport."""
        return _DELTAS[self]

    @property
    def word(self) -> str:
        return self.name.lower().replace("_", "-")

    def __str__(self) -> str:
        return str(int(self))


_DELTAS = ((0, 0), (1, -1), (1, 0), (1, 1), (0, -1), (0, 0), (0, 1), (-1, -1), (-1, 0), (-1, 1))
_TEXTS = tuple(str(d) for d in range(10))
_DIGITS = {text: d for d, text in enumerate(_TEXTS)}  # the hot path skips the enum


def bits(mask: int) -> Iterator[int]:
    """The set bits' indices, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Geometry:
    """Row, column and half-plane masks of one board size (``geometry(rows, cols)``)."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cells = n = rows * cols
        self.full = (1 << n) - 1
        row = (1 << cols) - 1
        self.row_masks = tuple(row << (r * cols) for r in range(rows))
        self.col_masks = tuple(sum(1 << (r * cols + c) for r in range(rows)) for c in range(cols))
        self.above = tuple((1 << (r * cols)) - 1 for r in range(rows))
        self.below = tuple(self.full ^ ((1 << ((r + 1) * cols)) - 1) for r in range(rows))
        self.left = tuple(sum(self.col_masks[:c]) for c in range(cols))
        self.right = tuple(sum(self.col_masks[c + 1:]) for c in range(cols))
        self.not_first_col = self.full ^ self.col_masks[0]
        self.not_last_col = self.full ^ self.col_masks[-1]
        # targets[cell][digit]: the cell a keypad step leads to, -1 off the board (0 and 5 stay)
        self.targets = tuple(tuple(self._target(i, d) for d in range(10)) for i in range(n))
        # the legal-move candidates from a cell, in command order: ("1", cell) ... ("9", cell)
        self.candidates = tuple(tuple((str(d), t[d]) for d in range(1, 10) if t[d] >= 0)
                                for t in self.targets)

    def _target(self, cell: int, digit: int) -> int:
        dr, dc = _DELTAS[digit]
        r, c = divmod(cell, self.cols)
        r, c = r + dr, c + dc
        return r * self.cols + c if 0 <= r < self.rows and 0 <= c < self.cols else -1

    def step_robots(self, robots: int, player: int) -> tuple[int, ...]:
        """Each robot one step toward ``player`` (a cell index), as eight disjoint groups.

        A robot's row and column each change by the sign of the difference, so every robot
        above-left of the player moves down-right, and so on. Groups keep their robots
        distinct; collisions show where two groups (or two robots) share a cell.
        """
        w = self.cols
        pr, pc = divmod(player, w)
        up, down = robots & self.above[pr], robots & self.below[pr]
        mid = robots & self.row_masks[pr]
        left, right, col = self.left[pc], self.right[pc], self.col_masks[pc]
        return ((up & left) << (w + 1), (up & col) << w, (up & right) << (w - 1),
                (mid & left) << 1, (mid & right) >> 1,
                (down & left) >> (w - 1), (down & col) >> w, (down & right) >> (w + 1))

    def dilate(self, mask: int) -> int:
        """``mask`` plus every cell a king's step away: where a robot can be next turn."""
        h = mask | ((mask << 1) & self.not_first_col) | ((mask >> 1) & self.not_last_col)
        return (h | (h << self.cols) | (h >> self.cols)) & self.full


@cache
def geometry(rows: int, cols: int) -> Geometry:
    return Geometry(rows, cols)


@register
class Robots(Game):
    id = "robots"
    title = "Robots"
    num_players = 1
    chance = True
    options_schema = OptionSchema(
        IntOption("rows", 10, 5, 60, "rows of the board"),
        IntOption("cols", 10, 5, 60, "columns of the board"),
        IntOption("max_robots", 40, 1, 3600, "robots on a board at most (level x 5 below it)"),
        IntOption("max_turns", 5000, 1, 1_000_000, "turns after which the run stops"),
    )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.rows: int = self.options["rows"]
        self.cols: int = self.options["cols"]
        self.geometry = geometry(self.rows, self.cols)
        self.max_turns: int = self.options["max_turns"]

    def robots_for(self, level: int) -> int:
        """Robots placed at the start of ``level``: level x 5, capped by the options and board."""
        most: int = self.options["max_robots"]
        return min(level * 5, most, self.geometry.cells - 1)

    def new_state(self, seed: int = 0) -> RobotsState:
        state = RobotsState(self, seed)
        state._start_level()
        return state

    def state_from_observation(self, observation: Mapping[str, Any],
                               seed: int = 0) -> RobotsState:
        """Rebuild a state from an observation; its teleports and boards come from ``Rng(seed)``.

        The move history is not part of an observation, so the rebuilt state's is empty.
        """
        board = observation.get("board")
        if (not isinstance(board, list) or len(board) != self.rows
                or any(not isinstance(r, str) or len(r) != self.cols for r in board)):
            raise GameError(f"'board' must be {self.rows} strings of {self.cols} characters")
        state = RobotsState(self, seed)
        players = []
        for i, ch in enumerate("".join(board)):
            if ch == "+":
                state.robots |= 1 << i
            elif ch == "*":
                state.scrap |= 1 << i
            elif ch == "@":
                players.append(i)
            elif ch != ".":
                raise GameError(f"unknown board character {ch!r} (expected @ + * .)")
        if len(players) != 1:
            raise GameError(f"the board must hold exactly one '@', found {len(players)}")
        state.player = players[0]
        state.level = observed_count(observation, "level", 1)
        state.score = observed_count(observation, "score")
        state.turn = observed_count(observation, "turn")
        state.destroyed = observed_count(observation, "destroyed")
        return state


class RobotsState(SoloState):
    """A Robots position: ``player`` is a cell index, ``robots`` and ``scrap`` bitboards."""

    game: Robots

    def __init__(self, game: Robots, seed: int) -> None:
        super().__init__(game, seed)
        self.geometry = game.geometry
        self.player = 0
        self.robots = 0
        self.scrap = 0
        self.level = 1
        self.score = 0
        self.turn = 0
        self.destroyed = 0

    # -- levels -----------------------------------------------------------------------------
    def _start_level(self) -> None:
        """A fresh board: the player at the centre, robots on distinct random other cells."""
        g = self.game
        self.player = (g.rows // 2) * g.cols + g.cols // 2
        self.scrap = 0
        cells = list(range(self.geometry.cells))
        cells[self.player], cells[-1] = cells[-1], cells[self.player]
        cells.pop()  # every cell but the player's
        count = g.robots_for(self.level)
        robots = 0
        for k in range(count):  # a partial Fisher-Yates shuffle: the first ``count`` cells
            j = k + self.rng.below(len(cells) - k)
            cells[k], cells[j] = cells[j], cells[k]
            robots |= 1 << cells[k]
        self.robots = robots

    # -- moves ------------------------------------------------------------------------------
    @property
    def position(self) -> tuple[int, int]:
        """The player's (row, col)."""
        return divmod(self.player, self.game.cols)

    def step_target(self, command: Command | int) -> int | None:
        """The cell a step command leads to, or ``None`` if it leaves the board."""
        target = self.geometry.targets[self.player][command]
        return None if target < 0 else target

    def legal_moves(self) -> list[str]:
        if self._result is not None:
            return []
        blocked = self.robots | self.scrap
        moves = ["0"]
        # "5" is among the candidates with the player's own cell, which is never blocked
        for text, target in self.geometry.candidates[self.player]:
            if not blocked >> target & 1:
                moves.append(text)
        return moves

    def _apply(self, move: str) -> None:
        digit = _DIGITS.get(move) if isinstance(move, str) else None
        if digit is None:
            digit = int(Command.parse(move))
        target = self._check(digit, move)
        if self._history_shared:
            self._own_history()
        self._history.append(_TEXTS[digit])
        self.player = target
        self.turn += 1
        self._robots_step()

    def _check(self, digit: int, move: str) -> int:
        """The player's cell after command ``digit``; raises if it is not allowed."""
        if digit == 5:
            return self.player
        if digit == 0:
            return self._teleport_target()
        target = self.geometry.targets[self.player][digit]
        if target >= 0 and not (self.robots | self.scrap) >> target & 1:
            return target
        word = Command(digit).word
        if target < 0:
            r, c = self.position
            raise IllegalMoveError(move, f"stepping {word} from {cell_words(r, c)} leaves the "
                                         "board")
        where = cell_words(target // self.game.cols, target % self.game.cols)
        thing = "robot" if self.robots >> target & 1 else "scrap"
        raise IllegalMoveError(move, f"stepping {word} runs into the {thing} at {where}")

    def _teleport_target(self) -> int:
        """A uniformly random cell with no robot, no scrap and not the player's own."""
        free = self.geometry.full & ~(self.robots | self.scrap | 1 << self.player)
        count = free.bit_count()
        if count == 0:
            return self.player  # nowhere to go: the same as waiting
        return _nth_bit(free, self.rng.below(count), self.game.cols)

    def _robots_step(self) -> None:
        player_bit = 1 << self.player
        before = self.robots.bit_count()
        once = twice = 0
        caught = 0  # robots ending on the player's cell
        for group in self.geometry.step_robots(self.robots, self.player):
            twice |= once & group
            once |= group
            if group & player_bit:
                caught += 1  # a group moves distinct robots to distinct cells
        # Whatever happens on the player's cell, it is no crash and scores nothing.
        survivors = once & ~twice & ~self.scrap & ~player_bit
        self.scrap |= twice & ~player_bit
        destroyed = before - survivors.bit_count() - caught
        self.destroyed += destroyed
        self.score += destroyed
        if caught:
            self.robots = survivors | player_bit
            r, c = self.position
            self._end("game-over", f"a robot reached the player at {cell_words(r, c)} "
                                   f"on level {self.level}")
            return
        self.robots = survivors
        if not survivors:
            self.score += 10 * self.level
            self.level += 1
            self._start_level()
        if self.turn >= self.game.max_turns:
            self._end("max-turns", f"stopped after {self.turn} turns (max_turns)")

    # -- figures ----------------------------------------------------------------------------
    def extra(self) -> dict[str, Any]:
        return {"level": self.level, "turns": self.turn, "destroyed": self.destroyed}

    def robot_cells(self) -> list[tuple[int, int]]:
        return [divmod(i, self.game.cols) for i in bits(self.robots)]

    def scrap_cells(self) -> list[tuple[int, int]]:
        return [divmod(i, self.game.cols) for i in bits(self.scrap)]

    # -- views ------------------------------------------------------------------------------
    def board_rows(self) -> list[str]:
        """The board as strings: ``@`` player, ``+`` robot, ``*`` scrap, ``.`` empty."""
        cells = bytearray(b"." * self.geometry.cells)
        for i in bits(self.scrap):
            cells[i] = ord("*")
        for i in bits(self.robots):
            cells[i] = ord("+")
        cells[self.player] = ord("@")
        text = cells.decode()
        cols = self.game.cols
        return [text[i:i + cols] for i in range(0, len(text), cols)]

    def observation(self, player: int = 0) -> dict[str, Any]:
        return {"game": "robots", "rows": self.game.rows, "cols": self.game.cols,
                "board": self.board_rows(), "player": list(self.position),
                "level": self.level, "score": self.score, "turn": self.turn,
                "robots_left": self.robots.bit_count(), "destroyed": self.destroyed,
                "to_move": self.to_move, "legal_moves": self.legal_moves()}

    def render(self, player: int | None = None) -> str:
        lines = self.board_rows()
        lines.append(self._last_line(f"level {self.level}, score {self.score}, turn "
                                     f"{self.turn}, {self.robots.bit_count()} robots left"))
        return "\n".join(lines)


def cell_words(row: int, col: int) -> str:
    """A cell as the board's labels name it (rows and columns from 0): "row 7, column 4"."""
    return f"row {row}, column {col}"


def _nth_bit(mask: int, n: int, chunk: int) -> int:
    """Index of the ``n``-th (0-based) set bit of ``mask``, skipping ``chunk``-bit runs."""
    base = 0
    part = (1 << chunk) - 1
    while True:
        count = (mask & part).bit_count()
        if n < count:
            break
        n -= count
        mask >>= chunk
        base += chunk
    for i in bits(mask & part):
        if n == 0:
            return base + i
        n -= 1
    raise AssertionError("unreachable: n was below the popcount")
