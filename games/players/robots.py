"""Robots players: random, and ``safe``, which never steps where a robot can reach it.

A robot at a king's step from the player's new cell always lands on it (its row and column each
step by the sign of the difference), and a robot further away never does; so a cell is safe for
one turn exactly when no live robot is adjacent to it. ``safe`` looks one turn further, and
only teleports when no step (or waiting) is safe.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Game
from games.players.base import Player, register_player
from games.robots import Command, Robots, RobotsState


@register_player("robots", "random")
class RandomRobots(Player):
    def choose(self, observation: Mapping[str, Any]) -> str:
        return self.rng.choice(observation["legal_moves"])


def safe_moves(state: RobotsState) -> list[Command]:
    """Steps and wait (no teleport) after which no robot can reach the player this turn."""
    if state.is_over():
        return []
    danger = state.geometry.dilate(state.robots)
    blocked = state.robots | state.scrap
    out = []
    for command in Command:
        if command is Command.TELEPORT:
            continue
        target = state.player if command is Command.WAIT else state.step_target(command)
        if target is None or blocked >> target & 1 or danger >> target & 1:
            continue
        out.append(command)
    return out


@register_player("robots", "safe")
class SafeRobots(Player):
    """Among safe moves, the one that destroys most robots now, then the one that keeps most
    safe moves for the next turn, then the one closest to the robots' centre (robots chasing
    from one side pile up on each other). Teleports only when cornered."""

    def __init__(self, game: Game, seat: int, seed: int = 0, time_limit: float = 1.0) -> None:
        super().__init__(game, seat, seed, time_limit)
        if not isinstance(game, Robots):
            raise TypeError("the safe player plays robots")
        self.robots_game = game

    def choose(self, observation: Mapping[str, Any]) -> str:
        state = self.robots_game.state_from_observation(observation)
        best: list[Command] = []
        best_key: tuple[int, int, int] | None = None
        for command in safe_moves(state):
            after = state.copy()
            after.apply(str(command))
            if after.is_over() and after.result is not None and after.result.reason == "game-over":
                continue  # cannot happen for a safe move; kept as a guard
            key = (after.score - state.score, len(safe_moves(after)), -_spread(after))
            if best_key is None or key > best_key:
                best, best_key = [command], key
            elif key == best_key:
                best.append(command)
        if not best:
            return str(Command.TELEPORT)
        return str(self.rng.choice(best))


def _spread(state: RobotsState) -> int:
    """Sum of Chebyshev distances from the player to every robot (smaller = robots bunched)."""
    pr, pc = state.position
    return sum(max(abs(r - pr), abs(c - pc)) for r, c in state.robot_cells())
