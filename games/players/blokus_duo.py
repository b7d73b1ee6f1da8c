"""Blokus Duo players: random, and greedy (big pieces, new corners, opponent's corners)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.blokus_duo import PASS_CODE, BlokusDuoState, BlokusMove
from games.blokus_duo.pieces import BOARD, corner_neighbours, edge_neighbours
from games.players.base import Player, register_player


@register_player("blokus_duo", "random")
class RandomBlokus(Player):
    """A uniformly random placement; passes only when nothing fits (a pass is final)."""

    def choose(self, observation: Mapping[str, Any]) -> str:
        placements = [m for m in observation["legal_moves"] if m != PASS_CODE]
        return self.rng.choice(placements) if placements else PASS_CODE


@register_player("blokus_duo", "greedy")
class GreedyBlokus(Player):
    """Largest piece first; among those, the most new corners of its own and the fewest
    corners left to the opponent; ties broken at random."""

    def choose(self, observation: Mapping[str, Any]) -> str:
        placements = [m for m in observation["legal_moves"] if m != PASS_CODE]
        if not placements:
            return PASS_CODE
        state: BlokusDuoState = self.game.state_from_observation(observation)  # type: ignore[assignment]
        moves = [BlokusMove.parse(code) for code in placements]
        biggest = max(m.shape.size for m in moves)
        best: list[str] = []
        best_score: tuple[int, int] | None = None
        for code, move in zip(placements, moves, strict=True):
            if move.shape.size != biggest:
                continue
            score = self._score(state, move)
            if best_score is None or score > best_score:
                best, best_score = [code], score
            elif score == best_score:
                best.append(code)
        return self.rng.choice(best)

    def _score(self, state: BlokusDuoState, move: BlokusMove) -> tuple[int, int]:
        me, opp = self.seat, 1 - self.seat
        mask = move.shape.mask << move.anchor
        occupied = state.own[0] | state.own[1] | mask
        my_own = state.own[me] | mask
        my_free = BOARD & ~occupied & ~edge_neighbours(my_own)
        my_corners = (corner_neighbours(my_own) & my_free).bit_count()
        opp_free = BOARD & ~occupied & ~state.edges[opp]
        opp_corners = (state.corners[opp] & opp_free).bit_count()
        return (my_corners, -opp_corners)
