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
from games.players.base import Player, RandomPlayer, register_player
from games.robots import Command, Robots, RobotsState

register_player("robots", "random")(RandomPlayer)


def safe_moves(state: RobotsState) -> list[Command]:
    """Steps and wait (no teleport) after which no robot can reach the player this turn."""
    if state.is_over():
        return []
    danger = state.geometry.dilate(state.robots)
    blocked = state.robots | state.scrap
    out: list[Command] = []
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
    """Only ever takes a safe move (none available: teleport, the one way out).

    Among safe moves it looks ``lookahead`` turns ahead through safe moves only (robots are
    deterministic; teleports are not searched) and prefers the most robots destroyed, then
    keeping several safe moves open, then the robots bunched together (robots chasing from one
    side pile into each other).
    """

    lookahead = 2
    _cornered = -100.0  # a line that leaves no safe move: it would have to teleport
    _points = 10.0  # weight of one point of score against one open safe move

    def __init__(self, game: Game, seat: int, seed: int = 0, time_limit: float = 1.0) -> None:
        super().__init__(game, seat, seed, time_limit)
        if not isinstance(game, Robots):
            raise TypeError("the safe player plays robots")
        self.robots_game = game

    def choose(self, observation: Mapping[str, Any]) -> str:
        state = self.robots_game.state_from_observation(observation)
        best: list[Command] = []
        best_key: tuple[float, int] | None = None
        for command, after in self._safe_children(state):
            value = (self._points * (after.score - state.score)
                     + self._value(after, self.lookahead - 1))
            key = (value, -_spread(after))
            if best_key is None or key > best_key:
                best, best_key = [command], key
            elif key == best_key:
                best.append(command)
        if not best:
            return str(Command.TELEPORT)
        return str(self.rng.choice(best))

    def _safe_children(self, state: RobotsState) -> list[tuple[Command, RobotsState]]:
        children = []
        for command in safe_moves(state):
            after = state.copy()
            after.apply(str(command))
            children.append((command, after))
        return children

    def _value(self, state: RobotsState, depth: int) -> float:
        children = self._safe_children(state)
        if not children:
            return self._cornered
        if depth <= 0:
            return float(min(len(children), 3))
        return max(self._points * (after.score - state.score) + self._value(after, depth - 1)
                   for _, after in children)


def _spread(state: RobotsState) -> int:
    """Sum of Chebyshev distances from the player to every robot (smaller = robots bunched)."""
    pr, pc = state.position
    return sum(max(abs(r - pr), abs(c - pc)) for r, c in state.robot_cells())
