"""Stones (game id ``stones``): place stones that may not touch any other stone.

Cells are bits ``row * size + col`` of an int. A stone blocks its 3x3 neighbourhood for both
players; the player to move with no free cell loses. The option ``holes`` blocks that many
cells drawn from the match seed before the first move, so the board differs from seed to seed
(without it the game is the same every match and the seat decides it: see
``docs/rules/stones.md``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.core import Game, State
from games.errors import GameError, IllegalMoveError, MalformedMoveError
from games.options import IntOption, OptionSchema
from games.registry import register
from games.result import Result, two_player_outcomes

_MOVE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")


@dataclass(frozen=True)
class StonesMove:
    row: int
    col: int

    @classmethod
    def parse(cls, text: str) -> StonesMove:
        m = _MOVE.match(text)
        if not m:
            raise MalformedMoveError(text, "expected 'row,col' with 0-based numbers, e.g. '2,2'")
        return cls(int(m[1]), int(m[2]))

    def __str__(self) -> str:
        return f"{self.row},{self.col}"


@cache
def neighbourhoods(size: int) -> tuple[int, ...]:
    """For each cell, the mask of the cell and its 8 neighbours."""
    masks = []
    for r in range(size):
        for c in range(size):
            m = 0
            for rr in range(max(0, r - 1), min(size, r + 2)):
                for cc in range(max(0, c - 1), min(size, c + 2)):
                    m |= 1 << (rr * size + cc)
            masks.append(m)
    return tuple(masks)


@register
class Stones(Game):
    id = "stones"
    title = "Stones"
    score_unit = "stones"
    num_players = 2
    scored = False  # stones placed are reported as scores, but only win/loss counts
    options_schema = OptionSchema(
        IntOption("size", 5, 2, 9, "board side n (n x n)"),
        IntOption("holes", 0, 0, 40, "cells blocked at the start, drawn from the seed "
                  "(at most n*n - 1)"))

    @property
    def size(self) -> int:
        size: int = self.options["size"]
        return size

    def split_moves(self, text: str) -> list[str]:
        """Moves are ``r,c`` themselves: ``2,2;0,0`` or simply ``2,2,0,0`` (pairs)."""
        if ";" in text:
            return super().split_moves(text)
        numbers = [t.strip() for t in text.split(",") if t.strip()]
        if len(numbers) % 2:
            raise GameError("stones moves are row,col pairs: give an even count of numbers "
                            "or separate moves with ';'")
        return [f"{r},{c}" for r, c in zip(numbers[::2], numbers[1::2], strict=True)]

    @property
    def holes(self) -> int:
        holes: int = self.options["holes"]
        return min(holes, self.size * self.size - 1)  # one free cell at least: a first move

    def new_state(self, seed: int = 0) -> StonesState:
        state = StonesState(self, seed)
        state.drill(self.holes)
        return state

    def state_from_observation(self, observation: Mapping[str, Any]) -> StonesState:
        rows = observation["board"]
        if len(rows) != self.size or any(len(r) != self.size for r in rows):
            raise GameError(f"board must be {self.size} rows of {self.size} cells")
        state = StonesState(self, 0)
        hood = neighbourhoods(self.size)
        placed = [0, 0]
        for r, line in enumerate(rows):
            for c, ch in enumerate(line):
                i = r * self.size + c
                if ch == "#":
                    state.stones |= 1 << i
                    state.blocked |= hood[i]
                elif ch == "x":  # next to a stone, or a hole: blocked either way
                    state.blocked |= 1 << i
        state.turn = observation.get("turn", bin(state.stones).count("1"))
        placed[0] = (state.turn + 1) // 2
        placed[1] = state.turn // 2
        state.placed = placed
        state._player = observation["to_move"] if observation.get("to_move") is not None else 0
        state._check_end()
        return state


class StonesState(State):
    game: Stones

    def __init__(self, game: Stones, seed: int) -> None:
        super().__init__(game, seed)
        self.history = []
        self.size = game.size
        self.full = (1 << (self.size * self.size)) - 1
        self.stones = 0
        self.blocked = 0
        self.placed = [0, 0]
        self.turn = 0
        self._player = 0

    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else self._player

    def drill(self, holes: int) -> None:
        """Block ``holes`` distinct cells drawn from the seed's own stream (Stones has no
        other chance, so the draw is the whole of what the seed decides)."""
        cells = list(range(self.size * self.size))
        for _ in range(holes):
            self.blocked |= 1 << cells.pop(self.rng.below(len(cells)))

    def free_mask(self) -> int:
        return self.full & ~self.blocked

    def legal_moves(self) -> list[str]:
        if self._result is not None:
            return []
        moves = []
        free = self.free_mask()
        n = self.size
        while free:
            low = free & -free
            i = low.bit_length() - 1
            moves.append(f"{i // n},{i % n}")
            free ^= low
        return moves

    def _apply(self, move: str) -> None:
        m = StonesMove.parse(move)
        n = self.size
        if not (0 <= m.row < n and 0 <= m.col < n):
            raise IllegalMoveError(move, f"cell ({m.row},{m.col}) is off the {n}x{n} board")
        i = m.row * n + m.col
        if self.stones >> i & 1:
            raise IllegalMoveError(move, f"cell ({m.row},{m.col}) already holds a stone")
        if self.blocked >> i & 1:
            # blocked with no stone around it: one of the holes drawn at the start
            why = "touches a stone" if neighbourhoods(n)[i] & self.stones else "is a hole"
            raise IllegalMoveError(move, f"cell ({m.row},{m.col}) {why}")
        self.stones |= 1 << i
        self.blocked |= neighbourhoods(n)[i]
        self.placed[self._player] += 1
        self.turn += 1
        self.history.append(str(m))
        self._player = 1 - self._player
        self._check_end()

    def _check_end(self) -> None:
        if self.free_mask() == 0:
            loser = self._player
            self._result = Result(
                reason="no-legal-move", scores=self.scores(),
                outcomes=two_player_outcomes(1 - loser),
                detail=f"player {loser} has no free cell", extra=self.extra(), scored=False)

    def scores(self) -> tuple[float, ...]:
        return (self.placed[0], self.placed[1])

    def extra(self) -> dict[str, Any]:
        return {"stones": self.placed[0] + self.placed[1]}

    def board_rows(self) -> list[str]:
        n = self.size
        rows = []
        for r in range(n):
            line = []
            for c in range(n):
                i = r * n + c
                line.append("#" if self.stones >> i & 1 else "x" if self.blocked >> i & 1 else ".")
            rows.append("".join(line))
        return rows

    def observation(self, player: int) -> dict[str, Any]:
        return {"game": "stones", "size": self.size, "player": player, "turn": self.turn,
                "to_move": self.to_move, "board": self.board_rows(),
                "legal_moves": self.legal_moves() if player == self.to_move else []}

    def spectator(self) -> dict[str, Any]:
        view = self.observation(self._player)
        view.pop("player")
        view["legal_moves"] = self.legal_moves()
        view["placed"] = list(self.placed)
        view["result"] = None if self._result is None else self._result.to_json()
        return view

    def render(self, player: int | None = None) -> str:
        n = self.size
        head = "   " + " ".join(str(c) for c in range(n))
        lines = [head] + [f"{r:>2} " + " ".join(row) for r, row in enumerate(self.board_rows())]
        lines.append(self._last_line(f"turn {self.turn}, player {self._player} to move"))
        return "\n".join(lines)

    def copy(self) -> StonesState:
        twin = StonesState.__new__(StonesState)
        twin.__dict__.update(self.__dict__)
        twin.history = list(self.history)
        twin.placed = list(self.placed)
        twin.rng = self.rng.copy()
        return twin
