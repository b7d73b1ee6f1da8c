"""Errors raised by the engine. All are ``ValueError`` subclasses carrying a readable reason."""

from __future__ import annotations


class GameError(ValueError):
    """Base class of every error the engine raises on bad input."""


class UnknownGameError(GameError):
    def __init__(self, game_id: str, known: list[str]) -> None:
        super().__init__(f"unknown game {game_id!r} (known: {', '.join(known)})")
        self.game_id = game_id


class OptionError(GameError):
    """An unknown option or a value outside its range; ``option`` names it."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"option {option!r}: {reason}")
        self.option = option
        self.reason = reason


class IllegalMoveError(GameError):
    """A move the rules do not allow here. The state is unchanged after it is raised."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"illegal move {move!r}: {reason}")
        self.move = move
        self.reason = reason


class MalformedMoveError(IllegalMoveError):
    """Text that is not a move in the game's notation at all."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(move, reason)
        self.args = (f"malformed move {move!r}: {reason}",)


class ReplayError(GameError):
    """A recorded move list that does not replay; ``index`` is the 0-based failing move."""

    def __init__(self, index: int, error: IllegalMoveError) -> None:
        super().__init__(f"move {index} ({error.move!r}): {error.reason}")
        self.index = index
        self.error = error
