"""One glossary of how a match ended, in words: the engine's and the league's reason codes
("no-legal-move", "worker-lost") and the referee's forfeit kinds ("timeout"), as every list,
the play page and the API's ``reason_text`` say them. A newcomer reads these; the codes stay
in the API's ``reason`` for programs."""

from __future__ import annotations

REASONS: dict[str, str] = {
    # the games' own endings
    "no-legal-move": "no legal move left",
    "both-passed": "both players passed",
    "turn-limit": "the turn limit was reached",
    "max-turns": "the turn limit was reached",
    "defeated": "a wizard was defeated",
    "game-over": "caught by a robot",
    "forfeit": "a forfeit",
    # the league's
    "build-error": "the bot did not compile",
    "package-error": "the bot's package could not start",
    "worker-lost": "the machine playing it was lost",
    "infrastructure": "a fault of the league's machines",
    "cancelled": "cancelled",
}

FORFEITS: dict[str, str] = {
    "timeout": "out of time",
    "crash": "crashed",
    "illegal": "illegal move",
    "malformed": "answer not a move",
    "output-limit": "too much output",
    "memory-limit": "out of memory",
    "compile": "did not compile",
    "package": "could not start",
    "resigned": "resigned",
}
"""A seat's forfeit as a list shows it beside the player."""

STAR = "the winner"
"""What ★ beside a player means, in every list and its legend."""


def reason_words(code: str) -> str:
    """How a match ended, in words; a code not in the glossary with its hyphens as spaces."""
    return REASONS.get(code) or FORFEITS.get(code) or code.replace("-", " ")


def forfeit_words(kind: str) -> str:
    return FORFEITS.get(kind) or kind.replace("-", " ")
