"""Tournament formats as pure functions over plain data: no Django, no database, no clock,
no global randomness, so property tests can play thousands of whole tournaments and the
service around them only stores what they return.

``tournament`` is the service's entry point (next round, playable series, over, standings);
``series`` says which games a pairing owes (seats, seed indices, the elimination decider);
each format has its module: ``round_robin``, ``swiss``, ``elimination`` (over ``bracket``),
``scored``; ``standings`` holds points and tie-breaks; ``types`` the values they share.
"""

from league.competitions.formats.series import games_to_play, series_games, series_result
from league.competitions.formats.standings import TieBreak
from league.competitions.formats.tournament import (
    Format,
    Results,
    is_over,
    next_round,
    playable,
    standings,
)
from league.competitions.formats.types import (
    Decision,
    Entry,
    EntryId,
    FormatError,
    Game,
    Options,
    Pairing,
    PairingKind,
    Round,
    Scores,
    SeriesResult,
    Standing,
    Winners,
)

__all__ = [
    "Decision", "Entry", "EntryId", "Format", "FormatError", "Game", "Options", "Pairing",
    "PairingKind", "Results", "Round", "Scores", "SeriesResult", "Standing", "TieBreak",
    "Winners", "games_to_play", "is_over", "next_round", "playable", "series_games",
    "series_result", "standings",
]
