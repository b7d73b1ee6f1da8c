"""Flat Monte Carlo: the plainest search built on ``State.playout``, for every game it can see.

Each legal move is tried in turn on a copy of the position rebuilt from the observation, the
rest of the game is played out at random, and the move with the best mean outcome wins. A
solo game's outcome is the final score; a two-player game's is 1 for a win, 0.5 for a draw and
0 for a loss, from this player's seat. Chance (2048 spawns, Robots teleports) is re-drawn for
every rollout from the player's own generator, never from the match.

Wizard Duel is left out: its observation hides the opponent, so a rollout would first need a
guess at everything unseen.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from games.core import Game, State

# Each game's own players register first, so listings read "random, ..., montecarlo".
from games.players import blokus_duo, g2048, robots, stones  # noqa: F401
from games.players.base import Player, register_player
from games.result import Outcome
from games.rng import Rng

_VALUE = {Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0}


class MonteCarlo(Player):
    """``budget_ms`` is the thinking time per move: 50 ms by default, never more than half of
    ``time_limit``. The clock is read before every rollout, so a move overruns its budget by at
    most one rollout (a whole random game: ~0.3 ms in 2048, ~5 ms in Blokus Duo). ``rollouts``
    plays that many a move instead of watching the clock: the same play on any machine."""

    default_budget_ms = 50.0
    generic = True

    def __init__(self, game: Game, seat: int, seed: int = 0, time_limit: float = 1.0,
                 budget_ms: float | None = None, rollouts: int | None = None) -> None:
        super().__init__(game, seat, seed, time_limit)
        if budget_ms is None:
            budget_ms = min(self.default_budget_ms, time_limit * 500.0)
        self.budget = budget_ms / 1000.0
        self.fixed = rollouts
        self.rollouts = 0  # in the last move, for tests and curious authors

    def choose(self, observation: Mapping[str, Any]) -> str:
        legal: list[str] = list(observation["legal_moves"])
        if len(legal) == 1:
            return legal[0]
        deadline = time.perf_counter() + self.budget
        root = self.game.state_from_observation(observation)
        # A random order, so a budget too short to try every move (Blokus opens with ~400)
        # samples the moves instead of always favouring the first ones listed.
        order = [legal.pop(self.rng.below(len(legal))) for _ in range(len(legal))]
        totals = [0.0] * len(order)
        counts = [0] * len(order)
        done = 0
        while (done < self.fixed if self.fixed is not None
               else done == 0 or time.perf_counter() < deadline):
            k = done % len(order)
            totals[k] += self.rollout(root, order[k])
            counts[k] += 1
            done += 1
        self.rollouts = done
        means = [t / c if c else float("-inf") for t, c in zip(totals, counts, strict=True)]
        return order[max(range(len(order)), key=means.__getitem__)]

    def rollout(self, root: State, move: str) -> float:
        state = root.copy()
        state.rng = Rng(self.rng.next64())
        state.apply(move)
        state.playout(self.rng)
        return self.value(state)

    def value(self, state: State) -> float:
        result = state.result
        if result is not None and result.outcomes is not None:
            return _VALUE[result.outcomes[self.seat]]
        return float(state.scores()[self.seat])


for _game_id in ("g2048", "robots", "stones", "blokus_duo"):
    register_player(_game_id, "montecarlo")(MonteCarlo)
