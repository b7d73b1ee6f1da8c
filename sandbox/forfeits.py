"""The ways a bot loses by breaking a rule or a limit rather than by playing: each forfeit in a
record, a participant's row and a page names one of these."""

from __future__ import annotations

from enum import StrEnum


class ForfeitKind(StrEnum):
    TIMEOUT = "timeout"
    """No move within the move time and what was left of the time bank."""
    CRASH = "crash"
    """The bot exited or was killed (its exit says how) before the game ended."""
    ILLEGAL = "illegal"
    """A move in the game's notation that the rules do not allow here."""
    MALFORMED = "malformed"
    """A reply that is not a move in the game's notation at all."""
    OUTPUT_LIMIT = "output-limit"
    MEMORY_LIMIT = "memory-limit"
    COMPILE = "compile"
    """The bot could not start: its source does not compile."""
    PACKAGE = "package"
    """The bot could not start: its package cannot be unpacked or has no entry point."""
    RESIGNED = "resigned"
    """A seat that is not a bot (a person) gave the game up: its source raised ``Resigned``."""


PLAYING_FORFEITS = (ForfeitKind.TIMEOUT, ForfeitKind.CRASH, ForfeitKind.ILLEGAL,
                    ForfeitKind.MALFORMED, ForfeitKind.OUTPUT_LIMIT, ForfeitKind.MEMORY_LIMIT)
"""The forfeits of a bot that started: the referee's (a resignation is a person's, never a
bot's)."""
