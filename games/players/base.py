"""Built-in players: the contract they implement, their registry, and an in-process match loop.

A player sees exactly what a bot program sees (its observation as JSON-ready data) and answers
with a move in the game's notation, so the sandbox can run the same code as a real bot.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from games.core import Game, State
from games.errors import GameError
from games.rng import Rng


class Player(ABC):
    """``time_limit`` is the seconds this player may think per move; searching players keep
    well inside it (the referee forfeits a late move)."""

    # A player written for any game (e.g. flat Monte Carlo) rather than for this one.
    generic: ClassVar[bool] = False

    def __init__(self, game: Game, seat: int, seed: int = 0, time_limit: float = 1.0) -> None:
        self.game = game
        self.seat = seat
        self.rng = Rng(seed)
        self.time_limit = time_limit

    @abstractmethod
    def choose(self, observation: Mapping[str, Any]) -> str:
        """The move to play, given this player's observation."""


class RandomPlayer(Player):
    """Uniform over the legal moves: the ``random`` player of every game whose legal moves
    are all worth drawing (each game's module registers it in its place in the listing)."""

    def choose(self, observation: Mapping[str, Any]) -> str:
        legal: list[str] = observation["legal_moves"]
        return self.rng.choice(legal)


_PLAYERS: dict[str, dict[str, type[Player]]] = {}


def register_player(game_id: str, name: str) -> Callable[[type[Player]], type[Player]]:
    def add(cls: type[Player]) -> type[Player]:
        _PLAYERS.setdefault(game_id, {})[name] = cls
        return cls
    return add


def player_names(game_id: str) -> list[str]:
    return list(_PLAYERS.get(game_id, {}))


def showcase_player(game_id: str) -> str:
    """The player to show a game with: its own players are registered weakest first."""
    own = [name for name, cls in _PLAYERS.get(game_id, {}).items() if not cls.generic]
    if not own:
        raise GameError(f"no built-in player for {game_id}")
    return own[-1]


def make_player(game: Game, name: str, seat: int, seed: int = 0,
                time_limit: float = 1.0) -> Player:
    try:
        cls = _PLAYERS[game.id][name]
    except KeyError:
        known = ", ".join(player_names(game.id)) or "none"
        raise GameError(f"no built-in player {name!r} for {game.id} (known: {known})") from None
    return cls(game, seat, seed, time_limit)


def play(game: Game, players: Sequence[Player], seed: int = 0,
         on_move: Callable[[State, str], None] | None = None) -> State:
    """Play a whole match in-process (tests, benchmarks); returns the final state."""
    state = game.new_state(seed)
    while (seat := state.to_move) is not None:
        move = players[seat].choose(state.observation(seat))
        state.apply(move)
        if on_move is not None:
            on_move(state, move)
    return state
