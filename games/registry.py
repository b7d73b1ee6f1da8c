"""Games by id. Each game module registers its ``Game`` class on import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Game, State
from games.errors import UnknownGameError

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    _GAMES[cls.id] = cls
    return cls


def game_ids() -> list[str]:
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGameError(game_id, game_ids()) from None


def make_game(game_id: str, options: Mapping[str, Any] | None = None) -> Game:
    """A game with validated options; raises ``OptionError`` naming a bad option."""
    return game_class(game_id)(options)


def new_state(game_id: str, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
    return make_game(game_id, options).new_state(seed)
