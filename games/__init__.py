"""botleague's game engine: pure rules, deterministic from a seed, no I/O.

    >>> import games
    >>> state = games.new_state("stones", {"size": 5}, seed=1)
    >>> state.apply("2,2")
"""

from games import blokus_duo, g2048, robots, stones, wizard_duel  # noqa: F401  (registers games)
from games.core import Game, State
from games.errors import (
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    OptionError,
    ReplayError,
    UnknownGameError,
)
from games.registry import game_class, game_ids, make_game, new_state
from games.result import Forfeit, Outcome, Result
from games.rng import Rng

__all__ = [
    "Forfeit", "Game", "GameError", "IllegalMoveError", "MalformedMoveError", "OptionError",
    "Outcome", "ReplayError", "Result", "Rng", "State", "UnknownGameError", "game_class",
    "game_ids", "make_game", "new_state",
]
