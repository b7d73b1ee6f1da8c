"""The engine contract every game implements: a ``Game`` (rules + options) and its ``State``.

A game is created from options; ``game.new_state(seed)`` starts a match. A state says whose
turn it is, lists and applies moves written in the game's notation, and renders views:
``observation(player)`` with only what that player may know, ``spectator()`` with everything,
``render()`` as text. Every bit of chance comes from ``state.rng``, seeded from the match
seed, so ``(game id, options, seed, moves)`` reproduces a match exactly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from games.errors import GameError, IllegalMoveError, ReplayError
from games.options import OptionSchema
from games.result import Forfeit, Result, two_player_outcomes
from games.rng import Rng


class Game(ABC):
    """The rules of one game under one set of options. Immutable once made."""

    id: ClassVar[str]
    title: ClassVar[str]
    num_players: ClassVar[int]
    hidden_information: ClassVar[bool] = False
    chance: ClassVar[bool] = False
    scored: ClassVar[bool] = True  # whether scores mean something beside win/loss
    score_unit: ClassVar[str] = ""
    """What a score counts, where "score" alone would not say ("squares", "health left")."""
    options_schema: ClassVar[OptionSchema] = OptionSchema()

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options: dict[str, Any] = self.options_schema.validate(options)

    @abstractmethod
    def new_state(self, seed: int = 0) -> State:
        """The start of a match; all chance in it derives from ``seed``."""

    def state_from_observation(self, observation: Mapping[str, Any]) -> State:
        """A state a bot can search from, rebuilt from its observation.

        Perfect-information games implement it; the future chance in the rebuilt state comes
        from a fresh RNG, never from the match seed (a bot must not foresee spawns).
        """
        raise GameError(f"{self.id} cannot rebuild a state from an observation")

    def split_moves(self, text: str) -> list[str]:
        """Split a move list typed on a command line: ``;`` or ``,`` between moves."""
        sep = ";" if ";" in text else ","
        return [m.strip() for m in text.split(sep) if m.strip()]

    def replay(self, seed: int, moves: Iterable[str]) -> State:
        """Re-derive a match; raises ``ReplayError`` naming the first move that fails."""
        state = self.new_state(seed)
        for index, move in enumerate(moves):
            try:
                state.apply(move)
            except IllegalMoveError as error:
                raise ReplayError(index, error) from error
        return state

    def viewer_assets(self) -> dict[str, Any]:
        """Fixed JSON-ready data a replay viewer draws with (piece shapes, say); no rules."""
        return {}

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "players": self.num_players,
                "hidden_information": self.hidden_information, "chance": self.chance,
                "scored": self.scored,
                "options": self.options_schema.describe()}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"


class State(ABC):
    """One position of a match, mutated in place by ``apply``; ``copy`` is cheap."""

    game: Game
    seed: int
    rng: Rng
    history: list[str]
    _result: Result | None

    def __init__(self, game: Game, seed: int) -> None:
        """What every state starts from: its game, its seed and the random stream drawn from
        it, and no result; each game adds its position (and its ``history``)."""
        self.game = game
        self.seed = seed
        self.rng = Rng(seed)
        self._result = None

    # -- whose turn ---------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to move, or ``None`` once the game is over."""

    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> Result | None:
        return self._result

    # -- moves --------------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[str]:
        """Every legal move for the player to move, one canonical text per distinct move."""

    def apply(self, move: str) -> None:
        """Validate and play ``move``; on ``IllegalMoveError`` the state is unchanged."""
        if self._result is not None:
            raise IllegalMoveError(str(move), "the game is over")
        if not isinstance(move, str):
            raise IllegalMoveError(repr(move), "a move must be text")
        self._apply(move)

    @abstractmethod
    def _apply(self, move: str) -> None:
        """Parse and check everything before mutating anything, then play and record it."""

    def playout(self, rng: Rng | int, max_moves: int | None = None) -> int:
        """Play uniformly random legal moves until the game ends or ``max_moves`` are played.

        The rollout of a Monte Carlo search. Move choices come from ``rng`` (an ``Rng`` or a
        seed), never from ``self.rng``, so the game's own chance stays exactly what ``apply``
        would draw: replaying ``history`` reproduces the state. Returns the moves played.
        Games may override it with a faster loop that keeps this contract.
        """
        chooser = rng if isinstance(rng, Rng) else Rng(rng)
        played = 0
        while self.to_move is not None:
            if max_moves is not None and played >= max_moves:
                break
            legal = self.legal_moves()
            if not legal:  # a chance step the caller must take (e.g. a 2048 afterstate)
                break
            self.apply(legal[chooser.below(len(legal))])
            played += 1
        return played

    def is_legal(self, move: str) -> bool:
        try:
            self.copy().apply(move)
        except IllegalMoveError:
            return False
        return True

    def forfeit(self, player: int, kind: str, detail: str = "") -> Result:
        """End the game because ``player`` broke a rule or a referee limit.

        Two-player games: that player loses. Solo games: the run stops and the score stands.
        """
        if self._result is not None:
            raise GameError("the game is already over")
        scores = self.scores()
        text = f"player {player} forfeits: {kind}" + (f" ({detail})" if detail else "")
        outcomes = two_player_outcomes(1 - player) if self.game.num_players == 2 else None
        self._result = Result(reason="forfeit", scores=scores, outcomes=outcomes, detail=text,
                              forfeit=Forfeit(player, kind, detail), extra=self.extra(),
                              scored=self.game.scored)
        return self._result

    # -- figures ------------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> tuple[float, ...]:
        """Current score of each player (squares placed, points ...)."""

    def extra(self) -> dict[str, Any]:
        """The game's extra figures reported beside the result."""
        return {}

    # -- views --------------------------------------------------------------------------
    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """JSON-ready view holding only what ``player`` may know."""

    @abstractmethod
    def spectator(self) -> dict[str, Any]:
        """JSON-ready view holding everything (referee, replay viewer)."""

    @abstractmethod
    def render(self, player: int | None = None) -> str:
        """Text for terminals and logs; from ``player``'s view when given."""

    # -- copying ------------------------------------------------------------------------
    @abstractmethod
    def copy(self) -> State:
        """An independent state; cheap enough to call at every node of a search."""

    def __str__(self) -> str:
        return self.render()

    def _last_line(self, playing: str) -> str:
        """``render``'s last line: ``playing`` while the game goes on, then the result."""
        return playing if self._result is None else self._result.summary()
