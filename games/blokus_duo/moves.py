"""Blokus Duo move codes: ``{piece}{orientation}{x}{y}`` and the pass ``X000``."""

from __future__ import annotations

from typing import NamedTuple

from games.blokus_duo.pieces import HEX, LETTERS, ORIENTATION_SHAPE, SHAPES, SIZE, Shape
from games.errors import MalformedMoveError

PASS_CODE = "X000"


class BlokusMove(NamedTuple):
    """A placement (piece, orientation, 0-based top-left x, y) or a pass (``piece`` is None).

    A NamedTuple rather than a frozen dataclass: it is built for every move a bot sends and
    a search plays, and is several times cheaper to create.
    """

    piece: int | None
    orientation: int = 0
    x: int = 0
    y: int = 0

    @property
    def is_pass(self) -> bool:
        return self.piece is None

    @property
    def shape(self) -> Shape:
        assert self.piece is not None
        return SHAPES[ORIENTATION_SHAPE[self.piece][self.orientation]]

    @property
    def anchor(self) -> int:
        return self.y * SIZE + self.x

    def canonical(self) -> str:
        """The one code the engine lists for this placement (lowest equivalent orientation)."""
        if self.piece is None:
            return PASS_CODE
        return f"{LETTERS[self.piece]}{self.shape.orientation}{HEX[self.x + 1]}{HEX[self.y + 1]}"

    def __str__(self) -> str:
        if self.piece is None:
            return PASS_CODE
        return f"{LETTERS[self.piece]}{self.orientation}{HEX[self.x + 1]}{HEX[self.y + 1]}"

    @classmethod
    def parse(cls, text: str) -> BlokusMove:
        code = text.strip().upper()
        if len(code) != 4:
            raise MalformedMoveError(text, "a move is 4 characters: piece A-U, orientation "
                                           "0-7, x and y as 1-E (e.g. U055), or X000 to pass")
        if code == PASS_CODE:
            return cls(None)
        letter, r, x, y = code[0], code[1], code[2], code[3]
        if letter == "X":
            raise MalformedMoveError(text, "a pass is written X000")
        if letter not in LETTERS:
            raise MalformedMoveError(text, f"piece {letter!r} is not one of A-U")
        if r not in "01234567":
            raise MalformedMoveError(text, f"orientation {r!r} is not one of 0-7")
        for axis, digit in (("x", x), ("y", y)):
            if digit not in HEX[1:]:
                raise MalformedMoveError(text, f"{axis} {digit!r} is not a square 1-E")
        return cls(LETTERS.index(letter), int(r), HEX.index(x) - 1, HEX.index(y) - 1)
