"""Wizard Duel actions: small frozen values that parse the sheet's notation and print it back.

``Action.parse`` is the one validating path for untrusted text. It checks the notation only
(words, directions, powers, look range, counts); whether the action is allowed in a position
is the state's business. Parsing is case-insensitive; ``str(action)`` is the canonical text
stored in a match's history.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from games.errors import MalformedMoveError

ELEMENTS = "FWTAE"
"""Element kinds in their fixed order: fire, water, wood (tree), wind (air), earth."""
ELEMENT_NAMES = ("fire", "water", "wood", "wind", "earth")
FIRE, WATER, WOOD, WIND, EARTH = range(5)
LOOK_MAX = 5


class Direction(StrEnum):
    U = "U"
    D = "D"
    L = "L"
    R = "R"

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTAS[self]


_DELTAS = {Direction.U: (-1, 0), Direction.D: (1, 0), Direction.L: (0, -1),
           Direction.R: (0, 1)}
DIRECTIONS = tuple(Direction)


class Spell(StrEnum):
    ARROW = "arrow"
    DRAGON = "dragon"
    HEAL = "heal"
    SHIELD = "shield"
    SCAN = "scan"
    WALL = "wall"


SPELL_ELEMENT = {Spell.ARROW: FIRE, Spell.DRAGON: FIRE, Spell.HEAL: WATER,
                 Spell.SHIELD: WOOD, Spell.SCAN: WIND, Spell.WALL: EARTH}
_POWERED = (Spell.HEAL, Spell.SHIELD, Spell.SCAN, Spell.WALL)
_AIMED = (Spell.SCAN, Spell.WALL)


class Action:
    """Base of the five action kinds; ``Action.parse(text)`` returns the right one."""

    __slots__ = ()
    verb: ClassVar[str]

    @staticmethod
    def parse(text: str) -> Action:
        words = text.split()
        if not words:
            raise MalformedMoveError(text, "empty move; expected place, move, gather, cast "
                                           "or look")
        verb = words[0].lower()
        parser = _PARSERS.get(verb)
        if parser is None:
            raise MalformedMoveError(text, f"unknown action {words[0]!r}; expected place, "
                                           "move, gather, cast or look")
        return parser(text, words[1:])


@dataclass(frozen=True, slots=True)
class Place(Action):
    """``place R C``: the secret start cell, chosen before turn 1."""

    row: int
    col: int
    verb: ClassVar[str] = "place"

    def __str__(self) -> str:
        return f"place {self.row} {self.col}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """``move U|D|L|R``: one step."""

    direction: Direction
    verb: ClassVar[str] = "move"

    def __str__(self) -> str:
        return f"move {self.direction}"


@dataclass(frozen=True, slots=True)
class Gather(Action):
    """``gather F2 A1``: counts per element kind, in the order F W T A E."""

    counts: tuple[int, int, int, int, int]
    verb: ClassVar[str] = "gather"

    @property
    def total(self) -> int:
        return sum(self.counts)

    def __str__(self) -> str:
        parts = [f"{ELEMENTS[k]}{n}" for k, n in enumerate(self.counts) if n]
        return "gather " + " ".join(parts)


@dataclass(frozen=True, slots=True)
class Look(Action):
    """``look N``: see N cells each way, then skip the next N - 1 own turns."""

    n: int
    verb: ClassVar[str] = "look"

    def __str__(self) -> str:
        return f"look {self.n}"


@dataclass(frozen=True, slots=True)
class Cast(Action):
    """``cast SPELL ARGS``. ``power`` is the element cost (dragon 2, arrow 1)."""

    spell: Spell
    power: int = 1
    direction: Direction | None = None
    row: int = -1
    col: int = -1
    verb: ClassVar[str] = "cast"

    @property
    def cost(self) -> tuple[int, int]:
        """(element kind, count) spent by the spell."""
        return SPELL_ELEMENT[self.spell], self.power

    def __str__(self) -> str:
        if self.spell is Spell.ARROW:
            return f"cast arrow {self.row} {self.col}"
        if self.spell is Spell.DRAGON:
            return "cast dragon"
        if self.spell in _AIMED:
            return f"cast {self.spell} {self.direction} {self.power}"
        return f"cast {self.spell} {self.power}"


def _number(text: str, word: str, what: str) -> int:
    if not word.isdigit() or not word.isascii():
        raise MalformedMoveError(text, f"{what} must be a non-negative number, got {word!r}")
    return int(word)


def _direction(text: str, word: str) -> Direction:
    try:
        return Direction(word.upper())
    except ValueError:
        raise MalformedMoveError(text, f"direction must be U, D, L or R, got {word!r}") from None


def _power(text: str, word: str, spell: Spell) -> int:
    if word not in ("1", "2"):
        raise MalformedMoveError(text, f"{spell} power must be 1 or 2, got {word!r}")
    return int(word)


def _arity(text: str, args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        raise MalformedMoveError(text, f"expected '{usage}'")


def _parse_place(text: str, args: list[str]) -> Place:
    _arity(text, args, 2, "place R C")
    return Place(_number(text, args[0], "row"), _number(text, args[1], "column"))


def _parse_move(text: str, args: list[str]) -> Move:
    _arity(text, args, 1, "move U|D|L|R")
    return Move(_direction(text, args[0]))


def _parse_gather(text: str, args: list[str]) -> Gather:
    if not args:
        raise MalformedMoveError(text, "expected 'gather' and counts such as F2 A1")
    counts = [0] * 5
    for word in args:
        kind = ELEMENTS.find(word[:1].upper()) if word else -1
        digits = word[1:]
        if kind < 0 or not digits.isdigit() or not digits.isascii():
            raise MalformedMoveError(text, f"{word!r} is not an element count like F2 "
                                           "(kinds F W T A E)")
        if counts[kind]:
            raise MalformedMoveError(text, f"element {ELEMENTS[kind]} is named twice")
        count = int(digits)
        if count == 0:
            raise MalformedMoveError(text, f"{word!r}: counts start at 1")
        counts[kind] = count
    return Gather((counts[0], counts[1], counts[2], counts[3], counts[4]))


def _parse_look(text: str, args: list[str]) -> Look:
    _arity(text, args, 1, "look N")
    n = args[0]
    if not (n.isdigit() and n.isascii() and 1 <= int(n) <= LOOK_MAX):
        raise MalformedMoveError(text, f"look takes N from 1 to {LOOK_MAX}, got {n!r}")
    return Look(int(n))


def _parse_cast(text: str, args: list[str]) -> Cast:
    if not args:
        raise MalformedMoveError(text, "expected 'cast SPELL ...'")
    try:
        spell = Spell(args[0].lower())
    except ValueError:
        known = ", ".join(s.value for s in Spell)
        raise MalformedMoveError(text, f"unknown spell {args[0]!r} (known: {known})") from None
    rest = args[1:]
    if spell is Spell.ARROW:
        _arity(text, rest, 2, "cast arrow R C")
        return Cast(spell, 1, None, _number(text, rest[0], "row"),
                    _number(text, rest[1], "column"))
    if spell is Spell.DRAGON:
        _arity(text, rest, 0, "cast dragon")
        return Cast(spell, 2)
    if spell in _AIMED:
        _arity(text, rest, 2, f"cast {spell} U|D|L|R 1|2")
        return Cast(spell, _power(text, rest[1], spell), _direction(text, rest[0]))
    assert spell in _POWERED
    _arity(text, rest, 1, f"cast {spell} 1|2")
    return Cast(spell, _power(text, rest[0], spell))


_PARSERS = {"place": _parse_place, "move": _parse_move, "gather": _parse_gather,
            "look": _parse_look, "cast": _parse_cast}
